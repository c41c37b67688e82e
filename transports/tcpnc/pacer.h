// Pacing of the TCP/NC sender's transmissions at the congestion controller's rate, with a burst
// allowance of about 1 ms of sending (at least 2 datagrams) so timer granularity and a late wake-up
// do not cost rate: after idle or a late timer up to that many may leave back to back.
#pragma once
#include <algorithm>
#include <chrono>

#include "transports/common/time.h"

namespace ncgw::tcpnc {

// When the next paced transmission may leave.
class Pacer {
 public:
  // Whether a transmission may leave at `now` at `rate` per second (0: unpaced, always).
  bool may_send(transport::TimePoint now, double rate) const { return rate <= 0 || now >= next_; }
  // A transmission left at `now`: the next one may leave one interval later, less what is left of
  // the burst allowance.
  void on_sent(transport::TimePoint now, double rate) {
    if (rate <= 0) return;
    const double interval_ns = 1e9 / rate;
    const double burst = std::max(2.0, rate * 0.001);
    const auto earliest = now - transport::Duration(static_cast<std::int64_t>(burst * interval_ns));
    next_ = std::max(next_, earliest) + transport::Duration(static_cast<std::int64_t>(interval_ns));
  }
  // The time may_send() turns true.
  transport::TimePoint next() const { return next_; }
  // Forgets the schedule.
  void reset() { next_ = transport::TimePoint{}; }

 private:
  transport::TimePoint next_{};
};

}  // namespace ncgw::tcpnc
