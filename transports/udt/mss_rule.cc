#include "transports/udt/mss_rule.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ncgw::udt {

double optimal_frame_bytes(const MssRuleInputs& in) {
  if (in.bit_error_rate <= 0) return std::numeric_limits<double>::infinity();
  const double header_bits = 8 * in.header_bytes, rate_bits = 8 * in.rate_bytes_per_s;
  const double c = 2 * header_bits + 2 * in.one_way_s * rate_bits;
  return std::sqrt(c / in.bit_error_rate) / 8;
}

double bit_error_rate(double packet_loss, double frame_bytes) {
  if (packet_loss <= 0 || frame_bytes <= 0) return 0;
  if (packet_loss >= 1) return 1;
  return -std::expm1(std::log1p(-packet_loss) / (8 * frame_bytes));
}

std::uint32_t suitable_mss(const MssRuleInputs& in, std::uint32_t path_mtu, std::uint32_t floor_bytes) {
  const double n = optimal_frame_bytes(in);
  const double capped = std::min(n, static_cast<double>(path_mtu));
  return std::max(floor_bytes, static_cast<std::uint32_t>(capped));
}

}  // namespace ncgw::udt
