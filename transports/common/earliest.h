// The earliest of a core's pending deadlines: each timer offers its time (or nothing) and the core
// reports the minimum from next_deadline(). One helper instead of a lambda per class.
#pragma once
#include <optional>

#include "transports/common/time.h"

namespace ncgw::transport {

// Accumulates the minimum of the deadlines offered to it.
class Earliest {
 public:
  // Offers a deadline.
  void offer(TimePoint t) {
    if (!t_ || t < *t_) t_ = t;
  }
  // Offers a deadline if there is one.
  void offer(const std::optional<TimePoint>& t) {
    if (t) offer(*t);
  }
  // The earliest deadline offered, if any.
  std::optional<TimePoint> get() const { return t_; }

 private:
  std::optional<TimePoint> t_;
};

}  // namespace ncgw::transport
