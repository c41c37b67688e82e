// The window-based controllers (NewReno, CUBIC: congestion.h) behind the CongestionController
// interface: unpaced, every coding window that needs a coded retransmission round is a congestion
// event (paper 002's TCP/NC), as are timeouts.
#pragma once
#include "transports/tcpnc/congestion.h"
#include "transports/tcpnc/congestion_controller.h"

namespace ncgw::tcpnc {

// NewReno or CUBIC as a CongestionController.
class WindowController : public CongestionController {
 public:
  // `s.algorithm` is kNewReno or kCubic; `s.cwnd_cap` is CWND_max.
  explicit WindowController(const ControllerSettings& s);

  void on_packet_acked(TimePoint sent, TimePoint now, Duration srtt) override { cc_.on_ack(1, sent, now, srtt); }
  void on_ack(const AckEvent& e) override;
  void on_sent(TimePoint, std::uint32_t) override {}
  void on_cw_failure(TimePoint sent, TimePoint now) override { cc_.on_congestion_event(sent, now); }
  void on_rto(TimePoint now) override { cc_.on_rto(now); }
  void reset() override { cc_.reset(); min_rtt_ = Duration::zero(); }
  double cwnd() const override { return cc_.cwnd(); }
  double pacing_rate() const override { return 0.0; }
  // Unknown (0): a loss-based window says little about the path's rate, so the rate-based limits
  // (CW delay bound, automatic sending buffer) keep their fixed fallbacks under these controllers.
  double path_rate() const override { return 0.0; }
  Duration min_rtt() const override { return min_rtt_; }
  std::uint64_t events() const override { return cc_.events(); }
  void stats(std::vector<transport::StatEntry>& out) const override;

 private:
  CongestionControl cc_;
  Duration min_rtt_{};   // smallest RTT sample
};

}  // namespace ncgw::tcpnc
