// Round-trip time and retransmission timeout, RFC 6298, with a configurable floor (near 200 ms:
// the end hosts' TCP inside the tunnel must not time out before the tunnel repairs a loss,
// docs/tcpnc-mechanism.md "Congestion control on top") and exponential backoff.
#pragma once
#include <cstdint>

#include "transports/common/time.h"

namespace ncgw::tcpnc {

using transport::Duration;
using transport::TimePoint;

// Smoothed RTT, variance, minimum and the RTO derived from them.
class RttEstimator {
 public:
  // `rto_min` floor, `rto_max` ceiling, `initial_rto` before the first sample (RFC 6298: 1 s).
  RttEstimator(Duration rto_min, Duration rto_max, Duration initial_rto);
  // A sample measured on a newly acknowledged transmission, minus the peer's reported ACK delay
  // when that leaves at least the minimum RTT.
  void on_sample(Duration rtt, Duration ack_delay);
  // The RTO with the current backoff applied.
  Duration rto() const;
  // Doubles the RTO (timer expired).
  void backoff() { if (backoff_ < 16) ++backoff_; }
  // Clears the backoff (new data acknowledged).
  void reset_backoff() { backoff_ = 0; }
  bool has_sample() const { return has_sample_; }
  Duration srtt() const { return srtt_; }
  Duration rttvar() const { return rttvar_; }
  Duration min_rtt() const { return min_rtt_; }
  Duration latest() const { return latest_; }
  unsigned backoff_count() const { return backoff_; }

 private:
  Duration rto_min_, rto_max_, initial_rto_;
  Duration srtt_{}, rttvar_{}, min_rtt_{}, latest_{};
  bool has_sample_ = false;
  unsigned backoff_ = 0;
};

}  // namespace ncgw::tcpnc
