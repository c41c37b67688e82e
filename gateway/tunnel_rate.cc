#include "gateway/tunnel_rate.h"

#include <string_view>

namespace ncgw::gateway {

std::optional<double> tunnel_rate_Bps(const transport::Core& core, double mean_packet_bytes) {
  double pps = 0, n = 0, k = 0;
  for (const auto& e : core.stats()) {
    const std::string_view name = e.name;
    if (name == "path_rate_pps") pps = e.value;
    if (name == "n") n = e.value;
    if (name == "k") k = e.value;
  }
  if (pps <= 0 || mean_packet_bytes <= 0) return std::nullopt;
  const double source_share = n > 0 ? n / (n + k) : 1.0;
  return pps * source_share * mean_packet_bytes;
}

fudp::Settings fudp_settings(const config::FudpSettings& s) {
  fudp::Settings out;
  out.period_ms = s.period_ms;
  out.alpha = s.alpha;
  out.beta = s.beta;
  out.flow_table_size = s.flow_table_size;
  out.idle_timeout_ms = s.idle_timeout_ms;
  out.shape = s.shape;
  return out;
}

}  // namespace ncgw::gateway
