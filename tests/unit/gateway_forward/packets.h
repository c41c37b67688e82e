// Test packets crafted with libtins (off the hot path) as byte vectors.
#pragma once
#include <tins/tins.h>

#include <cstdint>
#include <vector>

namespace ncgw::gateway::test {

// An IPv4 UDP packet src -> dst with `ttl` and `payload_size` bytes of payload.
inline std::vector<std::uint8_t> udp4(const char* src, const char* dst, std::uint8_t ttl, std::size_t payload_size = 100) {
  Tins::IP ip(dst, src);
  ip.ttl(ttl);
  ip.id(0x1234);
  Tins::UDP udp(9999, 5555);
  std::vector<std::uint8_t> payload(payload_size);
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<std::uint8_t>(i * 7);
  auto pdu = ip / udp / Tins::RawPDU(payload);
  return pdu.serialize();
}

// An IPv6 UDP packet src -> dst with `hop_limit`.
inline std::vector<std::uint8_t> udp6(const char* src, const char* dst, std::uint8_t hop_limit, std::size_t payload_size = 100) {
  Tins::IPv6 ip(dst, src);
  ip.hop_limit(hop_limit);
  std::vector<std::uint8_t> payload(payload_size, 0xab);
  auto pdu = ip / Tins::UDP(9999, 5555) / Tins::RawPDU(payload);
  return pdu.serialize();
}

// An IPv4 ICMP packet of `type` (8 echo request, 11 time exceeded...) src -> dst with `ttl`.
inline std::vector<std::uint8_t> icmp4(const char* src, const char* dst, std::uint8_t ttl, Tins::ICMP::Flags type) {
  Tins::IP ip(dst, src);
  ip.ttl(ttl);
  auto pdu = ip / Tins::ICMP(type) / Tins::RawPDU(std::vector<std::uint8_t>(32, 1));
  return pdu.serialize();
}

}  // namespace ncgw::gateway::test
