#include "transports/tcpnc/rtt.h"

#include <algorithm>

namespace ncgw::tcpnc {

RttEstimator::RttEstimator(Duration rto_min, Duration rto_max, Duration initial_rto)
    : rto_min_(rto_min), rto_max_(rto_max), initial_rto_(initial_rto) {}

void RttEstimator::on_sample(Duration rtt, Duration ack_delay) {
  if (rtt <= Duration::zero()) rtt = Duration(1);
  if (!has_sample_ || rtt < min_rtt_) min_rtt_ = rtt;
  if (rtt - ack_delay >= min_rtt_) rtt -= ack_delay;
  latest_ = rtt;
  if (!has_sample_) {
    srtt_ = rtt;
    rttvar_ = rtt / 2;
    has_sample_ = true;
    return;
  }
  const Duration err = srtt_ > rtt ? srtt_ - rtt : rtt - srtt_;
  rttvar_ = (rttvar_ * 3 + err) / 4;
  srtt_ = (srtt_ * 7 + rtt) / 8;
}

Duration RttEstimator::rto() const {
  Duration base = has_sample_ ? srtt_ + std::max(Duration(std::chrono::milliseconds(1)), rttvar_ * 4) : initial_rto_;
  base = std::clamp(base, rto_min_, rto_max_);
  for (unsigned i = 0; i < backoff_ && base < rto_max_; ++i) base *= 2;
  return std::min(base, rto_max_);
}

}  // namespace ncgw::tcpnc
