// The UDT role a gateway takes toward a peer when the configuration says `udt.role: auto`: both
// gateways must decide the same way whatever they call each other, so the decision comes from the
// ordered pair of underlay endpoints, which both see alike (without NAT): the smaller endpoint
// calls, the other listens.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "config/config.h"
#include "gateway/underlay_endpoint.h"
#include "transports/udt/udt_tunnel_core.h"

namespace ncgw::gateway {

// Caller if `local` orders before `peer` (address family, address bytes, then port), else listener.
udt::TunnelRole auto_udt_role(const UnderlayEndpoint& local, const UnderlayEndpoint& peer);

// The role for `peer` from its `udt.role` setting; `auto` is decided from the endpoints and logged.
udt::TunnelRole udt_role_for(const config::GatewayConfig& gw, const config::Peer& peer,
                             const UnderlayEndpoint& peer_endpoint);

}  // namespace ncgw::gateway
