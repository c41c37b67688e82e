#include "gateway/udt_role.h"

#include <spdlog/spdlog.h>

#include "gateway/log_once.h"

namespace ncgw::gateway {
udt::TunnelRole auto_udt_role(const UnderlayEndpoint& local, const UnderlayEndpoint& peer) {
  return endpoint_before(local, peer) ? udt::TunnelRole::caller : udt::TunnelRole::listener;
}

udt::TunnelRole udt_role_for(const config::GatewayConfig& gw, const config::Peer& peer,
                             const UnderlayEndpoint& peer_endpoint) {
  switch (peer.udt.role) {
    case config::UdtRole::caller: return udt::TunnelRole::caller;
    case config::UdtRole::listener: return udt::TunnelRole::listener;
    case config::UdtRole::rendezvous: return udt::TunnelRole::rendezvous;
    case config::UdtRole::automatic: break;
  }
  const auto local = local_endpoint_toward(gw.listen, peer_endpoint, gw.listen.udt_port);
  if (!local) {
    // No route to the peer now: fall back on an order both sides still share, the two names.
    const bool caller = name_before(gw.name, peer.name);
    warn_once("udt-role-names:" + peer.name,
              fmt::format("peer {}: udt role auto: no route to {}; {} by gateway names", peer.name,
                          peer_endpoint.to_string(), caller ? "caller" : "listener"));
    return caller ? udt::TunnelRole::caller : udt::TunnelRole::listener;
  }
  const udt::TunnelRole role = auto_udt_role(*local, peer_endpoint);
  info_once("udt-role:" + peer.name,
            fmt::format("peer {}: udt role auto: {} (local {} {} peer {})", peer.name,
                        role == udt::TunnelRole::caller ? "caller" : "listener", local->to_string(),
                        role == udt::TunnelRole::caller ? "<" : ">", peer_endpoint.to_string()));
  return role;
}

}  // namespace ncgw::gateway
