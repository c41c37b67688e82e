#include "transports/tcpnc/congestion.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ncgw::tcpnc {
namespace {

constexpr double kMinCwnd = 2.0;       // packets, after a reduction
constexpr double kLossWindow = 1.0;    // packets, after an RTO (RFC 5681)
constexpr double kRenoBeta = 0.5;
constexpr double kCubicBeta = 0.7;     // RFC 9438
constexpr double kCubicC = 0.4;        // RFC 9438, packets / s^3

}  // namespace

CongestionControl::CongestionControl(CcAlgorithm algo, double initial_cwnd, double cwnd_max)
    : algo_(algo), initial_(std::min(initial_cwnd, cwnd_max)), max_(cwnd_max) {
  reset();
}

void CongestionControl::reset() {
  cwnd_ = initial_;
  ssthresh_ = std::numeric_limits<double>::infinity();
  in_recovery_ = false;
  epoch_valid_ = false;
  w_max_ = 0;
}

void CongestionControl::on_ack(std::uint32_t packets, TimePoint sent, TimePoint now, Duration srtt) {
  if (in_recovery_ && sent <= recovery_start_) return;  // no growth for what was sent before
  in_recovery_ = false;
  if (cwnd_ < ssthresh_) {
    cwnd_ = std::min(cwnd_ + packets, max_);
    return;
  }
  if (algo_ == CcAlgorithm::kCubic) cubic_grow(packets, now, srtt);
  else cwnd_ += static_cast<double>(packets) / cwnd_;
  cwnd_ = std::min(cwnd_, max_);
}

void CongestionControl::cubic_grow(std::uint32_t packets, TimePoint now, Duration srtt) {
  if (!epoch_valid_) {
    epoch_ = now;
    epoch_valid_ = true;
    if (w_max_ <= cwnd_) { k_ = 0; w_max_ = cwnd_; }
    else k_ = std::cbrt((w_max_ - cwnd_) / kCubicC);
    w_est_ = cwnd_;
  }
  const double t = std::chrono::duration<double>(now - epoch_ + srtt).count();
  const double target = w_max_ + kCubicC * std::pow(t - k_, 3.0);
  const double alpha = 3.0 * (1.0 - kCubicBeta) / (1.0 + kCubicBeta);
  w_est_ += alpha * packets / cwnd_;
  double next = cwnd_;
  if (target > cwnd_) next += (std::min(target, 1.5 * cwnd_) - cwnd_) / cwnd_ * packets;
  cwnd_ = std::max(next, w_est_);
}

void CongestionControl::reduce(TimePoint now) {
  ++events_;
  if (algo_ == CcAlgorithm::kCubic) {
    // Fast convergence (RFC 9438 section 4.7).
    w_max_ = cwnd_ < w_max_ ? cwnd_ * (1.0 + kCubicBeta) / 2.0 : cwnd_;
    ssthresh_ = std::max(cwnd_ * kCubicBeta, kMinCwnd);
    epoch_valid_ = false;
  } else {
    ssthresh_ = std::max(cwnd_ * kRenoBeta, kMinCwnd);
  }
  recovery_start_ = now;
  in_recovery_ = true;
}

bool CongestionControl::on_congestion_event(TimePoint sent, TimePoint now) {
  if (in_recovery_ && sent <= recovery_start_) return false;
  reduce(now);
  cwnd_ = ssthresh_;
  return true;
}

void CongestionControl::on_rto(TimePoint now) {
  reduce(now);
  cwnd_ = kLossWindow;
  in_recovery_ = false;  // slow start from the loss window
}

}  // namespace ncgw::tcpnc
