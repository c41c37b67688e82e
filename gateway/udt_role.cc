#include "gateway/udt_role.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>
#include <spdlog/spdlog.h>

#include "gateway/route_probe.h"

namespace ncgw::gateway {
namespace {

// Address bytes of the endpoint that matter (4 for IPv4).
std::span<const std::uint8_t> address_bytes(const UnderlayEndpoint& e) {
  return {e.bytes.data(), e.v6 ? 16u : 4u};
}

// Parses a literal IP into an endpoint with `port`.
std::optional<UnderlayEndpoint> parse_endpoint(const std::string& ip, std::uint16_t port) {
  UnderlayEndpoint e;
  e.port = port;
  if (inet_pton(AF_INET, ip.c_str(), e.bytes.data()) == 1) return e;
  e.v6 = true;
  if (inet_pton(AF_INET6, ip.c_str(), e.bytes.data()) == 1) return e;
  return std::nullopt;
}

}  // namespace

std::string UnderlayEndpoint::to_string() const {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(v6 ? AF_INET6 : AF_INET, bytes.data(), buf, sizeof(buf));
  return v6 ? "[" + std::string(buf) + "]:" + std::to_string(port) : std::string(buf) + ":" + std::to_string(port);
}

udt::TunnelRole auto_udt_role(const UnderlayEndpoint& local, const UnderlayEndpoint& peer) {
  const auto a = address_bytes(local), b = address_bytes(peer);
  const auto key = [](bool v6, std::span<const std::uint8_t> addr, std::uint16_t port) {
    return std::make_tuple(v6, std::vector<std::uint8_t>(addr.begin(), addr.end()), port);
  };
  return key(local.v6, a, local.port) < key(peer.v6, b, peer.port) ? udt::TunnelRole::caller
                                                                   : udt::TunnelRole::listener;
}

std::optional<UnderlayEndpoint> local_endpoint_toward(const config::ListenConfig& listen,
                                                      const UnderlayEndpoint& peer) {
  if (listen.address != "0.0.0.0" && listen.address != "::") return parse_endpoint(listen.address, listen.udt_port);
  return routed_source(peer, listen.udt_port);
}

udt::TunnelRole udt_role_for(const config::GatewayConfig& gw, const config::Peer& peer,
                             const UnderlayEndpoint& peer_endpoint) {
  switch (peer.udt.role) {
    case config::UdtRole::caller: return udt::TunnelRole::caller;
    case config::UdtRole::listener: return udt::TunnelRole::listener;
    case config::UdtRole::rendezvous: return udt::TunnelRole::rendezvous;
    case config::UdtRole::automatic: break;
  }
  const auto local = local_endpoint_toward(gw.listen, peer_endpoint);
  if (!local) {
    // No route to the peer now: fall back on an order both sides still share, the two names.
    const bool caller = std::min(gw.name, peer.name) == gw.name;
    spdlog::warn("peer {}: udt role auto: no route to {}; {} by gateway names", peer.name,
                 peer_endpoint.to_string(), caller ? "caller" : "listener");
    return caller ? udt::TunnelRole::caller : udt::TunnelRole::listener;
  }
  const udt::TunnelRole role = auto_udt_role(*local, peer_endpoint);
  spdlog::info("peer {}: udt role auto: {} (local {} {} peer {})", peer.name,
               role == udt::TunnelRole::caller ? "caller" : "listener", local->to_string(),
               role == udt::TunnelRole::caller ? "<" : ">", peer_endpoint.to_string());
  return role;
}

}  // namespace ncgw::gateway
