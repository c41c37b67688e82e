#include "transports/tcpnc/round_cost.h"

#include <algorithm>

namespace ncgw::tcpnc {

void RoundCostMeter::start(transport::TimePoint now, std::uint64_t sent, double path_rate) {
  if (running_ || path_rate <= 0) return;
  running_ = true;
  start_ = now;
  sent_at_start_ = sent;
  path_rate_ = path_rate;
}

void RoundCostMeter::update(transport::TimePoint now, std::uint64_t sent, transport::Duration hold) {
  if (!running_ || now - start_ < hold) return;
  running_ = false;
  if (hold <= transport::Duration::zero()) return;  // no RTT yet: nothing to measure against
  // Signed: sending that merely fluctuates around the path rate (a saturating source, paced in
  // gain cycles) averages to no cost, where clipping each sample at zero would add up its noise.
  const double expected = path_rate_ * std::chrono::duration<double>(hold).count();
  const double shortfall = expected - static_cast<double>(sent - sent_at_start_);
  cost_ = samples_ == 0 ? shortfall : cost_ + kWeight * (shortfall - cost_);
  ++samples_;
}

}  // namespace ncgw::tcpnc
