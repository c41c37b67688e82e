#include "gateway/socket_address.h"

#include <arpa/inet.h>

namespace ncgw::gateway {

namespace {

// The IPv4 address and port inside `a`, unmapping ::ffff:a.b.c.d; false if it is real IPv6.
bool as_v4(const SocketAddress& a, in_addr& addr, in_port_t& port) {
  if (a.family() == AF_INET) {
    const auto* s = reinterpret_cast<const sockaddr_in*>(&a.storage);
    addr = s->sin_addr;
    port = s->sin_port;
    return true;
  }
  const auto* s6 = reinterpret_cast<const sockaddr_in6*>(&a.storage);
  if (!IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) return false;
  std::memcpy(&addr, s6->sin6_addr.s6_addr + 12, 4);
  port = s6->sin6_port;
  return true;
}

}  // namespace

SocketAddress SocketAddress::from(const transport::IpAddress& ip, std::uint16_t port) {
  SocketAddress a;
  if (ip.v6) {
    auto* s6 = reinterpret_cast<sockaddr_in6*>(&a.storage);
    s6->sin6_family = AF_INET6;
    s6->sin6_port = htons(port);
    std::memcpy(s6->sin6_addr.s6_addr, ip.bytes.data(), 16);
    a.length = sizeof(sockaddr_in6);
  } else {
    auto* s = reinterpret_cast<sockaddr_in*>(&a.storage);
    s->sin_family = AF_INET;
    s->sin_port = htons(port);
    std::memcpy(&s->sin_addr, ip.bytes.data(), 4);
    a.length = sizeof(sockaddr_in);
  }
  return a;
}

bool SocketAddress::same_endpoint(const SocketAddress& other) const {
  in_addr a4{}, b4{};
  in_port_t ap = 0, bp = 0;
  const bool a_is_v4 = as_v4(*this, a4, ap);
  const bool b_is_v4 = as_v4(other, b4, bp);
  if (a_is_v4 || b_is_v4) return a_is_v4 && b_is_v4 && a4.s_addr == b4.s_addr && ap == bp;
  const auto* a6 = reinterpret_cast<const sockaddr_in6*>(&storage);
  const auto* b6 = reinterpret_cast<const sockaddr_in6*>(&other.storage);
  return a6->sin6_port == b6->sin6_port &&
         std::memcmp(&a6->sin6_addr, &b6->sin6_addr, sizeof(in6_addr)) == 0;
}

transport::IpEndpoint SocketAddress::endpoint() const {
  transport::IpEndpoint e;
  e.port = port();
  if (family() == AF_INET6) {
    e.v6 = true;
    std::memcpy(e.bytes.data(), &reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_addr, 16);
  } else {
    std::memcpy(e.bytes.data(), &reinterpret_cast<const sockaddr_in*>(&storage)->sin_addr, 4);
  }
  return e;
}

std::uint16_t SocketAddress::port() const {
  if (family() == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_port);
  return ntohs(reinterpret_cast<const sockaddr_in*>(&storage)->sin_port);
}

std::string SocketAddress::to_string() const {
  char text[INET6_ADDRSTRLEN] = {};
  in_addr a4{};
  in_port_t port = 0;
  if (as_v4(*this, a4, port)) {
    inet_ntop(AF_INET, &a4, text, sizeof text);
    return std::string(text) + ":" + std::to_string(ntohs(port));
  }
  const auto* s6 = reinterpret_cast<const sockaddr_in6*>(&storage);
  inet_ntop(AF_INET6, &s6->sin6_addr, text, sizeof text);
  return "[" + std::string(text) + "]:" + std::to_string(ntohs(s6->sin6_port));
}

}  // namespace ncgw::gateway
