#include "transports/tcpnc/codel.h"

#include <cmath>

namespace ncgw::tcpnc {

TimePoint Codel::control_law(TimePoint t, Duration interval, std::uint32_t count) {
  const double scaled = static_cast<double>(interval.count()) / std::sqrt(static_cast<double>(count));
  return t + Duration(static_cast<Duration::rep>(scaled));
}

bool Codel::above_for_interval(TimePoint arrival, TimePoint now, std::size_t queued, Duration target,
                               Duration interval) {
  if (now - arrival < target || queued <= 1) {
    have_first_above_ = false;
    return false;
  }
  if (!have_first_above_) {
    first_above_ = now + interval;
    have_first_above_ = true;
    return false;
  }
  return now >= first_above_;
}

bool Codel::should_drop(TimePoint arrival, TimePoint now, std::size_t queued, Duration target, Duration interval) {
  const bool ok_to_drop = above_for_interval(arrival, now, queued, target, interval);
  if (dropping_) {
    if (!ok_to_drop) {
      dropping_ = false;
      return false;
    }
    if (now < drop_next_) return false;
    ++count_;
    ++drops_;
    drop_next_ = control_law(drop_next_, interval, count_);
    return true;
  }
  if (!ok_to_drop) return false;
  dropping_ = true;
  const std::uint32_t delta = count_ - last_count_;
  // Re-entering soon after the last dropping state: resume near the rate it reached.
  count_ = (delta > 1 && now - drop_next_ < interval * 16) ? delta : 1;
  drop_next_ = control_law(now, interval, count_);
  last_count_ = count_;
  ++drops_;
  return true;
}

}  // namespace ncgw::tcpnc
