// The input rate the spare plan is decided on: sources per second over the last second of
// adaptation intervals, not the last interval alone. A window-limited end host behind a tunnel
// sends in bursts: each retransmission round holds in-order delivery (and so the host's ACK clock)
// for about an RTT, and at 200 Mbit/s there are several rounds a second. One 100 ms interval saw
// either a burst (above the path: spare plan off) or a pause, so the spare plan, made for exactly
// such a host, rarely held (docs/results/tcpnc-grid.md, "CUBIC hosts at 5 % loss").
#pragma once
#include <array>
#include <cstddef>

namespace ncgw::tcpnc {

// Sources and seconds of the last kIntervals intervals, and their ratio.
class InputRateWindow {
 public:
  static constexpr std::size_t kIntervals = 10;  // 1 s at the default adaptation interval

  // Adds an interval in which `sources` were sent over `seconds`; returns rate().
  double add(double sources, double seconds) {
    sources_[next_] = sources;
    seconds_[next_] = seconds;
    next_ = (next_ + 1) % kIntervals;
    return rate();
  }
  // Sources per second over the intervals held (0 before the first).
  double rate() const {
    double s = 0, t = 0;
    for (std::size_t i = 0; i < kIntervals; ++i) s += sources_[i], t += seconds_[i];
    return t > 0 ? s / t : 0.0;
  }
  // Forgets every interval (a new session).
  void reset() { *this = InputRateWindow(); }

 private:
  std::array<double, kIntervals> sources_{}, seconds_{};
  std::size_t next_ = 0;  // slot the next interval goes to
};

}  // namespace ncgw::tcpnc
