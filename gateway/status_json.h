// The status document a gateway serves on its control socket, and its readable table form.
#pragma once
#include <chrono>
#include <string>
#include <vector>

#include "config/config.h"
#include "gateway/counters.h"
#include "gateway/socket_address.h"
#include "gateway/tun_device.h"
#include "transports/common/core.h"

namespace ncgw::gateway {

// One peer's view for the status document.
struct PeerStatusInput {
  const config::Peer* cfg;
  const SocketAddress* address;
  const transport::Core* core;
  const PeerCounters* counters;
};

// Everything render_status_json reads.
struct StatusInput {
  const config::GatewayConfig& cfg;
  const GatewayCounters& counters;
  const TunDevice* tun;
  std::chrono::steady_clock::duration uptime;
  std::vector<PeerStatusInput> peers;
};

// JSON: {"gateway", "version", "uptime_s", "tun": {...}, "counters": {...}, "peers": [...]}.
std::string render_status_json(const StatusInput& in);
// A readable table of a status document (what `ncgw status` prints without --json).
// Throws nlohmann::json::exception on a malformed document.
std::string render_status_table(const std::string& json_text);

}  // namespace ncgw::gateway
