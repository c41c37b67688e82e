// Congestion control of the TCP/NC sender, in packets (transmissions in flight). NewReno
// (RFC 5681/6582 style: slow start, congestion avoidance, one halving per round trip) and CUBIC
// (RFC 9438). The caller decides what a congestion event is: in TCP/NC a CW that still misses DoF
// after its planned combinations were resolved, never a loss the redundancy covered.
#pragma once
#include <cstdint>

#include "transports/common/time.h"
#include "transports/tcpnc/congestion_controller.h"

namespace ncgw::tcpnc {

using transport::Duration;
using transport::TimePoint;

// cwnd and ssthresh with the chosen growth rule, capped at CWND_max.
class CongestionControl {
 public:
  // Starts in slow start at `initial_cwnd` packets; never exceeds `cwnd_max`.
  CongestionControl(CcAlgorithm algo, double initial_cwnd, double cwnd_max);
  // `packets` transmissions sent at `sent` were newly acknowledged at `now`.
  void on_ack(std::uint32_t packets, TimePoint sent, TimePoint now, Duration srtt);
  // A congestion event caused by a transmission sent at `sent`: reduces once per recovery period
  // (events about transmissions sent before the current recovery began are ignored).
  // Returns whether the window was reduced.
  bool on_congestion_event(TimePoint sent, TimePoint now);
  // Retransmission timeout: ssthresh from the current window, cwnd back to the loss window.
  void on_rto(TimePoint now);
  // Forgets everything (new session).
  void reset();

  double cwnd() const { return cwnd_; }
  double ssthresh() const { return ssthresh_; }
  std::uint64_t events() const { return events_; }
  CcAlgorithm algorithm() const { return algo_; }

 private:
  // Multiplicative decrease shared by events and timeouts.
  void reduce(TimePoint now);
  // Congestion-avoidance growth of CUBIC for `packets` acknowledged.
  void cubic_grow(std::uint32_t packets, TimePoint now, Duration srtt);

  CcAlgorithm algo_;
  double initial_, max_;
  double cwnd_, ssthresh_;
  bool in_recovery_ = false;
  TimePoint recovery_start_{};
  std::uint64_t events_ = 0;
  // CUBIC state.
  double w_max_ = 0, k_ = 0, w_est_ = 0;
  TimePoint epoch_{};
  bool epoch_valid_ = false;
};

}  // namespace ncgw::tcpnc
