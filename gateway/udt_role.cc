#include "gateway/udt_role.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <spdlog/spdlog.h>

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

// The source address the kernel picks toward `peer` (connect() on a UDP socket sends nothing).
std::optional<UnderlayEndpoint> routed_source(const UnderlayEndpoint& peer, std::uint16_t port) {
  const int fd = ::socket(peer.v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::nullopt;
  sockaddr_storage ss{};
  socklen_t len = 0;
  if (peer.v6) {
    auto* a = reinterpret_cast<sockaddr_in6*>(&ss);
    a->sin6_family = AF_INET6;
    a->sin6_port = htons(peer.port);
    std::memcpy(&a->sin6_addr, peer.bytes.data(), 16);
    len = sizeof(*a);
  } else {
    auto* a = reinterpret_cast<sockaddr_in*>(&ss);
    a->sin_family = AF_INET;
    a->sin_port = htons(peer.port);
    std::memcpy(&a->sin_addr, peer.bytes.data(), 4);
    len = sizeof(*a);
  }
  std::optional<UnderlayEndpoint> out;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&ss), len) == 0) {
    sockaddr_storage me{};
    socklen_t me_len = sizeof(me);
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&me), &me_len) == 0) {
      UnderlayEndpoint e;
      e.v6 = peer.v6;
      e.port = port;
      if (peer.v6) std::memcpy(e.bytes.data(), &reinterpret_cast<sockaddr_in6*>(&me)->sin6_addr, 16);
      else std::memcpy(e.bytes.data(), &reinterpret_cast<sockaddr_in*>(&me)->sin_addr, 4);
      out = e;
    }
  }
  ::close(fd);
  return out;
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
