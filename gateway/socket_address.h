// A UDP peer address as the kernel hands it over (sockaddr_storage), comparable without allocation.
#pragma once
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "transports/common/ip_address.h"

namespace ncgw::gateway {

// IPv4 or IPv6 address with port, in kernel form.
struct SocketAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;

  // Builds one from an address and port.
  static SocketAddress from(const transport::IpAddress& ip, std::uint16_t port);
  // Builds one from an endpoint value.
  static SocketAddress from(const transport::IpEndpoint& e) { return from(e.address(), e.port); }
  // The endpoint as a value (IPv4-mapped IPv6 stays IPv6).
  transport::IpEndpoint endpoint() const;
  // True if both hold the same family, address and port (IPv4-mapped IPv6 equals IPv4).
  bool same_endpoint(const SocketAddress& other) const;
  // "10.0.0.2:5500" or "[fd00::2]:5500".
  std::string to_string() const;
  // The family (AF_INET or AF_INET6).
  int family() const { return storage.ss_family; }
  // The port, in host order.
  std::uint16_t port() const;
};

}  // namespace ncgw::gateway
