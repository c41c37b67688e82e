// Paper 000 section 5.1.1: the segment size that minimises the transfer delay of a stop-and-wait
// frame over a path with bit error rate P_b (eq. 15, for A = H):
//   n = sqrt((2 H + 2 (t_p + t_pr) R) / P_b)    (n, H in bits; R in bit/s; t_p + t_pr one way, s)
// and its use: the smaller of that and the path MTU (a larger frame would be fragmented).
#pragma once
#include <cstdint>

namespace ncgw::udt {

// What eq. 15 depends on.
struct MssRuleInputs {
  double header_bytes = 0;       // H: headers per frame (IP + UDP + UDT)
  double one_way_s = 0;          // t_p + t_pr: propagation plus processing, one way (RTT / 2)
  double rate_bytes_per_s = 0;   // R: the channel's rate
  double bit_error_rate = 0;     // P_b
};

// Eq. 15 in bytes; +infinity when P_b is 0 (no errors: no reason to cut frames short).
double optimal_frame_bytes(const MssRuleInputs& in);

// The bit error rate at which a frame of `frame_bytes` is lost with probability `packet_loss`
// (independent bit errors: 1 - (1 - P_b)^(8 L) = p).
double bit_error_rate(double packet_loss, double frame_bytes);

// The most suitable MSS: eq. 15 capped by `path_mtu`, at least `floor_bytes`.
std::uint32_t suitable_mss(const MssRuleInputs& in, std::uint32_t path_mtu, std::uint32_t floor_bytes);

}  // namespace ncgw::udt
