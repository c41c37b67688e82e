#include "gateway/udt/udp_driver.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/prctl.h>

#include <algorithm>
#include <cstring>
#include <ctime>

namespace ncgw::udt {
namespace {

// Datagrams per send round (one sendmmsg when the port's batch fills).
constexpr std::size_t kSendRound = gateway::kBatch;

}  // namespace

// The daemon's UDT port setting: GSO on send, no GRO (packet pairs keep their own arrival times).
UdpDriver::UdpDriver(Endpoint& ep, const PeerAddress& bind_to)
    : ep_(ep), port_(gateway::SocketAddress::from(bind_to), gateway::UdpOffloads::send_only, gateway::WhenBlocked::hold) {
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);  // precise pacing wake-ups (docs/traps.md)
}

TimePoint UdpDriver::now() {
  return transport::time_from_ns(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

void UdpDriver::receive_all(TimePoint now) {
  // Kernel arrival times are CLOCK_REALTIME: moved onto the steady clock, never later than `now`.
  timespec rt;
  clock_gettime(CLOCK_REALTIME, &rt);
  const std::int64_t offset = rt.tv_sec * 1'000'000'000LL + rt.tv_nsec - transport::ns_since_epoch(now);
  for (int round = 0; round < 16; ++round) {
    const std::size_t n = port_.receive_batch();
    for (std::size_t i = 0; i < n; ++i) {
      if (port_.truncated(i)) continue;
      const std::int64_t real = port_.received_realtime_ns(i);
      const TimePoint at = real == 0 ? now : std::min(now, transport::time_from_ns(real - offset));
      const auto d = port_.received(i);
      if (receive_filter_ && receive_filter_(d, at)) continue;
      ep_.on_datagram(d, port_.sender(i).endpoint(), at);
    }
    if (!port_.batch_was_full()) return;
  }
}

bool UdpDriver::transmit_all(TimePoint now) {
  for (int round = 0; round < 16; ++round) {
    if (port_.blocked() && (port_.flush(), port_.blocked())) return false;
    std::size_t n = 0;
    for (; n < kSendRound; ++n) {
      const std::span<std::uint8_t> slot = port_.send_slot();
      if (slot.empty()) return false;  // the socket buffer is full: wait until it is writable
      const auto t = ep_.poll_transmit(slot, now);
      if (!t) break;
      port_.commit_send(t->size, gateway::SocketAddress::from(t->to));
    }
    port_.flush();
    if (port_.blocked()) return false;
    if (n < kSendRound) return true;
  }
  return true;
}

void UdpDriver::wait(TimePoint now, int extra_fd, bool want_write) {
  pollfd fds[2] = {{port_.fd(), static_cast<short>(POLLIN | (want_write ? POLLOUT : 0)), 0}, {extra_fd, POLLIN, 0}};
  std::int64_t wait_ns = 20'000'000;  // cap: the caller's step runs at least every 20 ms
  if (const auto d = ep_.next_deadline()) wait_ns = std::min(wait_ns, transport::ns_since_epoch(*d) - transport::ns_since_epoch(now));
  if (wait_ns <= 0) return;
  const timespec ts{static_cast<time_t>(wait_ns / 1'000'000'000), static_cast<long>(wait_ns % 1'000'000'000)};
  ppoll(fds, extra_fd >= 0 ? 2 : 1, &ts, nullptr);
}

bool UdpDriver::run(const std::function<bool(TimePoint)>& step, std::chrono::nanoseconds timeout,
                    const std::function<int()>& input_fd) {
  const TimePoint end = now() + timeout;
  for (;;) {
    TimePoint t = now();
    receive_all(t);
    const auto d = ep_.next_deadline();
    if (d && *d <= t) ep_.on_timeout(t);
    if (step(t)) {
      transmit_all(now());  // flush what the last step queued (e.g. shutdown)
      return true;
    }
    t = now();
    const bool flushed = transmit_all(t);
    if (t >= end) return false;
    wait(now(), input_fd ? input_fd() : -1, !flushed);
  }
}

}  // namespace ncgw::udt
