// What a tunnel can carry, from its core's own estimate, for FUDP's available bandwidth (eq. 3).
#pragma once
#include <optional>

#include "config/config.h"
#include "gateway/fudp/settings.h"
#include "transports/common/core.h"

namespace ncgw::gateway {

// Inner bytes per second the core's rate estimate allows: TCP/NC's delivery-rate estimate
// (path_rate_pps, datagrams/s) times the source share n / (n + k) times `mean_packet_bytes`.
// Nothing for cores without an estimate (plain, udt) or before the first sample.
std::optional<double> tunnel_rate_Bps(const transport::Core& core, double mean_packet_bytes);

// The FUDP module's settings from the config's.
fudp::Settings fudp_settings(const config::FudpSettings& s);

}  // namespace ncgw::gateway
