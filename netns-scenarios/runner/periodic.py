"""A sampler that calls `sample(t)` every `interval` seconds in a thread of its own while a run's
traffic flows (t: seconds since start()), and `finish()` once when stopped."""
import threading
import time


class PeriodicSampler:
    """Base of the run's samplers; subclasses define sample(t) and finish()."""

    def __init__(self, interval):
        self.interval = float(interval)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def start(self):
        """Starts sampling in a thread of its own."""
        self.t0 = time.monotonic()
        self.thread.start()
        return self

    def stop(self):
        """Stops sampling, then finish()."""
        self.done.set()
        self.thread.join()
        self.finish()

    def sample(self, t):
        """One sample at `t` seconds since start()."""
        raise NotImplementedError

    def finish(self):
        """After the last sample (files closed or written)."""

    def _loop(self):
        while not self.done.is_set():
            self.sample(round(time.monotonic() - self.t0, 3))
            self.done.wait(self.interval)
