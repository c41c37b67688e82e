#include "transports/tcpnc/window_controller.h"

#include <chrono>
#include <cmath>

#include "transports/common/bbr.h"

namespace ncgw::tcpnc {

WindowController::WindowController(const ControllerSettings& s)
    : cc_(s.algorithm == CcAlgorithm::kCubic ? CcAlgorithm::kCubic : CcAlgorithm::kNewReno, s.initial_cwnd,
          s.cwnd_cap) {}

void WindowController::on_ack(const AckEvent& e) {
  if (e.rtt && (min_rtt_ == Duration::zero() || *e.rtt < min_rtt_)) min_rtt_ = *e.rtt;
}


void WindowController::stats(std::vector<transport::StatEntry>& out) const {
  out.push_back({"ssthresh", std::isinf(cc_.ssthresh()) ? -1.0 : cc_.ssthresh()});
}

std::unique_ptr<CongestionController> make_controller(const ControllerSettings& s) {
  if (s.algorithm == CcAlgorithm::kBbr) return std::make_unique<transport::BbrController>(s);
  return std::make_unique<WindowController>(s);
}

}  // namespace ncgw::tcpnc
