// Pacing of the TCP/NC sender's transmissions at the congestion controller's rate, with a burst
// allowance of about 1 ms of sending (at least 2 datagrams) so timer granularity and a late wake-up
// do not cost rate: after idle or a late timer up to that many may leave back to back.
#pragma once
#include <algorithm>
#include <chrono>

#include "transports/common/time.h"

namespace ncgw::tcpnc {

// When the next paced transmission may leave. The schedule is the (virtual) time of the last
// transmission; the interval after it is taken at the rate asked about, so a new rate applies to
// the very next transmission, not one later.
class Pacer {
 public:
  // Whether a transmission may leave at `now` at `rate` per second (0: unpaced, always).
  bool may_send(transport::TimePoint now, double rate) const { return rate <= 0 || now >= next(rate); }
  // A transmission left at `now`: the next one may leave one interval later, less what is left of
  // the burst allowance.
  void on_sent(transport::TimePoint now, double rate) {
    if (rate <= 0) return;
    const transport::Duration gap = interval(rate);
    const double burst = std::max(2.0, rate * 0.001);
    const auto earliest = now - transport::Duration(static_cast<std::int64_t>(burst * static_cast<double>(gap.count())));
    last_ = std::max(last_ + gap, earliest);
  }
  // The time may_send() turns true at `rate`.
  transport::TimePoint next(double rate) const { return rate <= 0 ? last_ : last_ + interval(rate); }
  // Forgets the schedule.
  void reset() { last_ = transport::TimePoint{}; }

 private:
  // One transmission's share of a second at `rate`.
  static transport::Duration interval(double rate) {
    return transport::Duration(static_cast<std::int64_t>(1e9 / rate));
  }

  transport::TimePoint last_{};  // the last transmission's slot in the schedule
};

}  // namespace ncgw::tcpnc
