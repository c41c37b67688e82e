// The status document a gateway serves on its control socket, and its readable table form.
#pragma once
#include <chrono>
#include <string>
#include <vector>

#include "config/config.h"
#include "gateway/counters.h"
#include "gateway/fudp/cfs.h"
#include "gateway/socket_address.h"
#include "gateway/tun_device.h"
#include "gateway/udp_port.h"
#include "transports/common/core.h"

namespace ncgw::gateway {

// One peer's view for the status document.
struct PeerStatusInput {
  const config::Peer* cfg;
  const SocketAddress* address;
  const transport::Core* core;
  const PeerCounters* counters;
  const fudp::Cfs* fudp = nullptr;  // null: FUDP off for this peer
};

// One UDP port's view for the status document.
struct PortStatusInput {
  std::string local;                 // bound address:port
  std::uint64_t send_errors = 0;     // datagrams the kernel refused (sendmmsg)
  std::uint64_t receive_errors = 0;  // recvmmsg failures other than "nothing waiting"
  std::uint64_t truncated = 0;       // datagrams larger than the receive buffer (dropped)
  bool gso = false;                  // UDP GSO sends on (off once the kernel refused one)
  bool gro = false;                  // UDP GRO receives on
  UdpPort::BatchCounters batches;    // system calls and datagrams each way
};

// Everything render_status_json reads.
struct StatusInput {
  const config::GatewayConfig& cfg;
  const GatewayCounters& counters;
  const TunDevice* tun;
  std::chrono::steady_clock::duration uptime;
  std::vector<PeerStatusInput> peers;
  std::vector<PortStatusInput> ports;
  std::size_t workers = 1;                 // event loops serving the peers
};

// JSON: {"gateway", "version", "workers", "uptime_s", "tun": {...}, "counters": {...}, "ports": [...],
// "peers": [...]}.
std::string render_status_json(const StatusInput& in);
// A readable table of a status document (what `ncgw status` prints without --json).
// Throws nlohmann::json::exception on a malformed document.
std::string render_status_table(const std::string& json_text);

}  // namespace ncgw::gateway
