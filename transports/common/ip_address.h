// IP addresses and UDP endpoints as plain values: the one address type of every layer (the
// configuration, route lookup on the data path, the transports' peer tables). The gateway converts
// to and from the kernel's sockaddr only at its sockets (gateway/socket_address.h).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ncgw::transport {

// An IPv4 or IPv6 address; IPv4 lives in the first 4 bytes of `bytes` (network byte order).
struct IpAddress {
  bool v6 = false;
  std::array<std::uint8_t, 16> bytes{};
  friend bool operator==(const IpAddress&, const IpAddress&) = default;
};

// An IP address and UDP port (an underlay endpoint).
struct IpEndpoint {
  std::array<std::uint8_t, 16> bytes{};  // address in network byte order; IPv4 in the first 4
  std::uint16_t port = 0;                // host byte order
  bool v6 = false;

  // a.b.c.d:port.
  static IpEndpoint v4(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d, std::uint16_t port) {
    IpEndpoint p;
    p.bytes[0] = a; p.bytes[1] = b; p.bytes[2] = c; p.bytes[3] = d;
    p.port = port;
    return p;
  }
  // The address without the port.
  IpAddress address() const { return {v6, bytes}; }
  // Parses "a.b.c.d:port" or "[v6]:port"; returns false on syntax errors.
  static bool parse(const std::string& text, IpEndpoint& out);
  // "a.b.c.d:port" or "[v6]:port".
  std::string to_string() const;
  friend bool operator==(const IpEndpoint&, const IpEndpoint&) = default;
};

// Hash of an endpoint for unordered containers (FNV-1a over address, port and family).
struct IpEndpointHash {
  std::size_t operator()(const IpEndpoint& a) const noexcept {
    std::uint64_t h = 1469598103934665603ull;
    for (auto b : a.bytes) h = (h ^ b) * 1099511628211ull;
    h = (h ^ a.port) * 1099511628211ull;
    return static_cast<std::size_t>(h ^ a.v6);
  }
};

}  // namespace ncgw::transport
