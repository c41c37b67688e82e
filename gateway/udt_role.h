// The UDT role a gateway takes toward a peer when the configuration says `udt.role: auto`: both
// gateways must decide the same way whatever they call each other, so the decision comes from the
// ordered pair of underlay endpoints, which both see alike (without NAT): the smaller endpoint
// calls, the other listens.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "config/config.h"
#include "transports/udt/udt_tunnel_core.h"

namespace ncgw::gateway {

// An underlay endpoint as raw address bytes (4 or 16) and port.
struct UnderlayEndpoint {
  std::array<std::uint8_t, 16> bytes{};
  bool v6 = false;
  std::uint16_t port = 0;
  // "192.0.2.1:5502" / "[2001:db8::1]:5502", for logs.
  std::string to_string() const;
};

// Caller if `local` orders before `peer` (address family, address bytes, then port), else listener.
udt::TunnelRole auto_udt_role(const UnderlayEndpoint& local, const UnderlayEndpoint& peer);

// The local endpoint the peer sees: listen.address when it is specific, else the source address
// the kernel's routing picks toward the peer (a connected UDP socket's name), with listen.udt_port.
// Nothing if no route leads to the peer.
std::optional<UnderlayEndpoint> local_endpoint_toward(const config::ListenConfig& listen,
                                                      const UnderlayEndpoint& peer);

// The role for `peer` from its `udt.role` setting; `auto` is decided from the endpoints and logged.
udt::TunnelRole udt_role_for(const config::GatewayConfig& gw, const config::Peer& peer,
                             const UnderlayEndpoint& peer_endpoint);

}  // namespace ncgw::gateway
