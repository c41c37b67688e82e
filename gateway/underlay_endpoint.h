// An underlay endpoint (address and UDP port) as both gateways of a tunnel see it, and the local
// one the kernel's routing picks toward a peer. Gateways that must agree on something without
// talking first (the UDT role, the plain session id) decide it from the ordered pair of their two
// endpoints, which both see alike whatever they call each other (without NAT in between).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "config/config.h"

namespace ncgw::gateway {

// An underlay endpoint as raw address bytes (4 or 16) and port.
struct UnderlayEndpoint {
  std::array<std::uint8_t, 16> bytes{};
  bool v6 = false;
  std::uint16_t port = 0;
  // "192.0.2.1:5502" / "[2001:db8::1]:5502", for logs.
  std::string to_string() const;
};

// True if `a` orders before `b`: address family, address bytes, then port.
bool endpoint_before(const UnderlayEndpoint& a, const UnderlayEndpoint& b);

// A literal IP address with `port`; nothing if `ip` is not one.
std::optional<UnderlayEndpoint> parse_endpoint(const std::string& ip, std::uint16_t port);

// The local endpoint the peer sees: listen.address when it is specific, else the source address
// the kernel's routing picks toward the peer (a connected UDP socket's name), with `local_port`.
// Nothing if no route leads to the peer.
std::optional<UnderlayEndpoint> local_endpoint_toward(const config::ListenConfig& listen,
                                                      const UnderlayEndpoint& peer, std::uint16_t local_port);

// The order gateways fall back on while no route leads to the peer: their names, the lesser first.
// Both sides agree only when each gateway's own name is the one its peer's entry uses for it.
bool name_before(const std::string& local_name, const std::string& peer_name);

}  // namespace ncgw::gateway
