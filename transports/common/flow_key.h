// The identity of an inner flow, as FUDP accounts it and parallel UDT spreads it over channels: the
// inner 5-tuple of an IPv4 or IPv6 packet read by offset (no parsing library, no allocation).
// TCP and UDP flows are keyed by addresses and ports; every other protocol between two hosts is
// one flow of class `other` (protocol and ports zero).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace ncgw::transport {

// A flow's class (FUDP measures TCP, measures and shapes UDP, measures other).
enum class FlowClass : std::uint8_t { tcp, udp, other };

// Inner 5-tuple; IPv4 addresses occupy the first 4 bytes of each address field.
struct FlowKey {
  std::array<std::uint8_t, 16> src{};
  std::array<std::uint8_t, 16> dst{};
  std::uint16_t src_port = 0;
  std::uint16_t dst_port = 0;
  std::uint8_t protocol = 0;  // IP protocol number (6, 17) or 0 for class other
  bool v6 = false;
  friend bool operator==(const FlowKey&, const FlowKey&) = default;
};

// The class a key belongs to.
FlowClass flow_class(const FlowKey& key);

// The key of an IP packet, or nothing when the packet is not well-formed IPv4/IPv6. A TCP/UDP
// packet too short for its ports, and IPv4 fragments after the first, count with ports zero.
std::optional<FlowKey> parse_flow(std::span<const std::uint8_t> packet);

// A 64-bit hash of a key (for the flow table's buckets).
std::uint64_t hash(const FlowKey& key);

// "udp 10.0.0.1:5000 > 10.0.0.2:5201" (status output; allocates, off the hot path).
std::string to_string(const FlowKey& key);
// "tcp", "udp" or "other".
const char* to_string(FlowClass c);

}  // namespace ncgw::transport
