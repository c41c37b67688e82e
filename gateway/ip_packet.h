// Reads the few IP header fields the data path needs by offset: no parsing library, no allocation.
#pragma once
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>

#include "config/prefix.h"

namespace ncgw::gateway {

// The destination address of an IPv4 or IPv6 packet, or nothing if the packet is malformed.
inline std::optional<transport::IpAddress> ip_destination(std::span<const std::uint8_t> packet) {
  if (packet.empty()) return std::nullopt;
  const unsigned version = packet[0] >> 4;
  transport::IpAddress a;
  if (version == 4 && packet.size() >= 20 && (packet[0] & 0x0F) >= 5) {
    std::memcpy(a.bytes.data(), packet.data() + 16, 4);
    return a;
  }
  if (version == 6 && packet.size() >= 40) {
    a.v6 = true;
    std::memcpy(a.bytes.data(), packet.data() + 24, 16);
    return a;
  }
  return std::nullopt;
}

}  // namespace ncgw::gateway
