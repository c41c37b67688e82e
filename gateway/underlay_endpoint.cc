#include "gateway/underlay_endpoint.h"

#include <arpa/inet.h>

#include <algorithm>
#include <span>
#include <tuple>
#include <vector>

#include "gateway/route_probe.h"

namespace ncgw::gateway {
namespace {

// Address bytes of the endpoint that matter (4 for IPv4).
std::span<const std::uint8_t> address_bytes(const UnderlayEndpoint& e) {
  return {e.bytes.data(), e.v6 ? 16u : 4u};
}

}  // namespace

std::string UnderlayEndpoint::to_string() const {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(v6 ? AF_INET6 : AF_INET, bytes.data(), buf, sizeof(buf));
  return v6 ? "[" + std::string(buf) + "]:" + std::to_string(port) : std::string(buf) + ":" + std::to_string(port);
}

bool endpoint_before(const UnderlayEndpoint& a, const UnderlayEndpoint& b) {
  const auto key = [](const UnderlayEndpoint& e) {
    const auto addr = address_bytes(e);
    return std::make_tuple(e.v6, std::vector<std::uint8_t>(addr.begin(), addr.end()), e.port);
  };
  return key(a) < key(b);
}

std::optional<UnderlayEndpoint> parse_endpoint(const std::string& ip, std::uint16_t port) {
  UnderlayEndpoint e;
  e.port = port;
  if (inet_pton(AF_INET, ip.c_str(), e.bytes.data()) == 1) return e;
  e.v6 = true;
  if (inet_pton(AF_INET6, ip.c_str(), e.bytes.data()) == 1) return e;
  return std::nullopt;
}

std::optional<UnderlayEndpoint> local_endpoint_toward(const config::ListenConfig& listen,
                                                      const UnderlayEndpoint& peer, std::uint16_t local_port) {
  if (listen.address != "0.0.0.0" && listen.address != "::") return parse_endpoint(listen.address, local_port);
  return routed_source(peer, local_port);
}

bool name_before(const std::string& local_name, const std::string& peer_name) { return local_name < peer_name; }

}  // namespace ncgw::gateway
