// Builds the transport core for a configured peer (one core per peer), mapping the YAML settings
// onto each core's own settings struct.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include "config/config.h"
#include "gateway/peer_keys.h"
#include "gateway/underlay_endpoint.h"
#include "transports/common/core.h"

namespace ncgw::gateway {

// Raised when a peer's transport cannot be built (e.g. not compiled into this build).
class TransportUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Largest UDP payload the underlay carries for this peer: underlay MTU minus IP and UDP headers.
std::size_t underlay_max_datagram(const config::GatewayConfig& gw, const config::Peer& peer);

// The UDP port the gateway listens on for peers of transport `kind` (listen.*_port).
std::uint16_t listen_port(const config::GatewayConfig& gw, config::TransportKind kind);

// Session id both gateways of a plain tunnel derive without talking: `plain.session_id` when set,
// else the id of the two underlay endpoints (below); the two names if no route leads to the peer.
std::uint32_t plain_session_id(const config::GatewayConfig& gw, const config::Peer& peer);

// The bytes an endpoint contributes to a derived session id: family (4 or 6), address, port (big-endian).
std::string endpoint_key(const UnderlayEndpoint& e);

// FNV-1a over endpoint_key of the smaller endpoint, then of the larger: the same on both sides.
std::uint32_t plain_session_id(const UnderlayEndpoint& local, const UnderlayEndpoint& peer);

// The TUN MTU `tun.mtu: auto` resolves to: the smallest payload any peer's core carries
// unfragmented (underlay MTU minus every header the tunnel adds); throws TransportUnavailable.
std::uint32_t auto_tun_mtu(const config::GatewayConfig& gw);

// What building a core takes from the host: random bytes (run seeds, session ids, the secure
// layer's key exchange) and the wall clock minus core time in ns (the secure layer's timestamps).
// The simulator tier supplies seeded ones, so its runs replay from a seed.
struct CoreHost {
  std::function<void(std::span<std::uint8_t>)> random;
  std::int64_t wall_offset_ns = 0;
};

// The running system's: getrandom(2), and CLOCK_REALTIME now (core time starts near zero when the
// gateway starts).
CoreHost system_core_host();

// The core for `peer` of gateway `gw`; throws TransportUnavailable. A secured peer's transport
// core is wrapped in crypto::SecureCore and built for datagrams the record overhead smaller;
// `keys` are its keys (null: placeholder keys, for sizing and check-config); `host` null: the
// system's.
std::unique_ptr<transport::Core> make_core(const config::GatewayConfig& gw, const config::Peer& peer,
                                           const PeerKeys* keys = nullptr, const CoreHost* host = nullptr);

}  // namespace ncgw::gateway
