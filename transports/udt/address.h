// A UDP peer address as a small value type (IPv4 or IPv6 bytes plus port), so the sans-I/O
// multiplexer can tell connections apart without touching sockets.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace ncgw::udt {

// An IPv4 or IPv6 address and UDP port; IPv4 uses the first 4 bytes of `bytes`.
struct PeerAddress {
  std::array<std::uint8_t, 16> bytes{};  // address in network byte order
  std::uint16_t port = 0;                // host byte order
  bool v6 = false;

  // Builds an IPv4 address a.b.c.d:port.
  static PeerAddress v4(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d, std::uint16_t port) {
    PeerAddress p;
    p.bytes[0] = a; p.bytes[1] = b; p.bytes[2] = c; p.bytes[3] = d;
    p.port = port;
    return p;
  }
  // Parses "a.b.c.d:port" or "[v6]:port"; returns false on syntax errors.
  static bool parse(const std::string& text, PeerAddress& out);
  // "a.b.c.d:port" or "[v6]:port".
  std::string to_string() const;
  friend bool operator==(const PeerAddress&, const PeerAddress&) = default;
};

// Hash for unordered containers.
struct PeerAddressHash {
  std::size_t operator()(const PeerAddress& a) const noexcept {
    std::uint64_t h = 1469598103934665603ull;
    for (auto b : a.bytes) h = (h ^ b) * 1099511628211ull;
    h = (h ^ a.port) * 1099511628211ull;
    return static_cast<std::size_t>(h ^ a.v6);
  }
};

}  // namespace ncgw::udt
