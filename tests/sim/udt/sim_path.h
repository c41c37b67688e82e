// What the UDT simulator tests share: the 100 Mbit/s path's packet sizes, the two gateways'
// addresses, a tunnel's settings and a named figure from a core's status.
#pragma once
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

#include "transports/udt/udt_tunnel_core.h"

namespace ncgw::udt::simpath {

inline constexpr double kRate = 100e6;                   // the bottleneck, bits per second
inline constexpr std::size_t kPacket = 1456;             // one full UDT payload per IP packet
inline constexpr double kWireBytes = kPacket + 16 + 28;  // + UDT header + IPv4/UDP

inline const PeerAddress kA = PeerAddress::v4(10, 0, 0, 1, 5502);
inline const PeerAddress kB = PeerAddress::v4(10, 0, 0, 2, 5502);

// Default tunnel settings with the role, peer and seed of one side.
inline UdtTunnelSettings tunnel(TunnelRole role, const PeerAddress& peer, std::uint64_t seed) {
  UdtTunnelSettings t = default_tunnel_settings();
  t.role = role;
  t.peer = peer;
  t.seed = seed;
  return t;
}

// A named figure from a core's stats (a test failure if it has none by that name).
inline double stat(const transport::Core& c, const char* name) {
  for (const auto& e : c.stats())
    if (e.name == name) return e.value;
  ADD_FAILURE() << "no stat " << name;
  return 0;
}

}  // namespace ncgw::udt::simpath
