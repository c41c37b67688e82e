#include "transports/common/flow_key.h"

#include <arpa/inet.h>

#include <cstring>

namespace ncgw::transport {
namespace {

constexpr std::uint8_t kTcp = 6;
constexpr std::uint8_t kUdp = 17;

// Big-endian 16-bit read.
std::uint16_t be16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] << 8 | p[1]); }

// True for IPv6 extension headers that carry a next-header byte and a length we can skip.
bool skippable_v6_header(std::uint8_t next) {
  return next == 0 || next == 43 || next == 60;  // hop-by-hop, routing, destination options
}

// Fills protocol and ports from the transport header at `l4` (ports stay zero when absent).
void read_ports(FlowKey& key, std::uint8_t protocol, std::span<const std::uint8_t> l4, bool has_ports) {
  if (protocol != kTcp && protocol != kUdp) return;  // class other: protocol 0, ports 0
  key.protocol = protocol;
  if (!has_ports || l4.size() < 4) return;
  key.src_port = be16(l4.data());
  key.dst_port = be16(l4.data() + 2);
}

std::optional<FlowKey> parse_v4(std::span<const std::uint8_t> p) {
  const std::size_t ihl = (p[0] & 0x0F) * 4u;
  if (ihl < 20 || p.size() < ihl) return std::nullopt;
  FlowKey key;
  std::memcpy(key.src.data(), p.data() + 12, 4);
  std::memcpy(key.dst.data(), p.data() + 16, 4);
  const bool later_fragment = (be16(p.data() + 6) & 0x1FFF) != 0;
  read_ports(key, p[9], p.subspan(ihl), !later_fragment);
  return key;
}

std::optional<FlowKey> parse_v6(std::span<const std::uint8_t> p) {
  if (p.size() < 40) return std::nullopt;
  FlowKey key;
  key.v6 = true;
  std::memcpy(key.src.data(), p.data() + 8, 16);
  std::memcpy(key.dst.data(), p.data() + 24, 16);
  std::uint8_t next = p[6];
  std::size_t at = 40;
  bool has_ports = true;
  for (int hops = 0; hops < 8; ++hops) {
    if (next == 44) {  // fragment header: ports only in the first fragment
      if (p.size() < at + 8) return key;
      has_ports = (be16(p.data() + at + 2) & 0xFFF8) == 0;
      next = p[at];
      at += 8;
      continue;
    }
    if (!skippable_v6_header(next)) break;
    if (p.size() < at + 8) return key;
    const std::size_t len = (static_cast<std::size_t>(p[at + 1]) + 1) * 8;
    next = p[at];
    at += len;
    if (p.size() < at) return key;
  }
  read_ports(key, next, p.subspan(std::min(at, p.size())), has_ports);
  return key;
}

}  // namespace

FlowClass flow_class(const FlowKey& key) {
  if (key.protocol == kTcp) return FlowClass::tcp;
  if (key.protocol == kUdp) return FlowClass::udp;
  return FlowClass::other;
}

std::optional<FlowKey> parse_flow(std::span<const std::uint8_t> packet) {
  if (packet.empty()) return std::nullopt;
  const unsigned version = packet[0] >> 4;
  if (version == 4 && packet.size() >= 20) return parse_v4(packet);
  if (version == 6) return parse_v6(packet);
  return std::nullopt;
}

std::uint64_t hash(const FlowKey& key) {
  // FNV-1a over the fields, then a final mix (splitmix64) so low bits spread over buckets.
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::uint8_t b) { h = (h ^ b) * 1099511628211ull; };
  for (auto b : key.src) mix(b);
  for (auto b : key.dst) mix(b);
  mix(static_cast<std::uint8_t>(key.src_port >> 8));
  mix(static_cast<std::uint8_t>(key.src_port));
  mix(static_cast<std::uint8_t>(key.dst_port >> 8));
  mix(static_cast<std::uint8_t>(key.dst_port));
  mix(key.protocol);
  mix(key.v6 ? 1 : 0);
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

const char* to_string(FlowClass c) {
  switch (c) {
    case FlowClass::tcp: return "tcp";
    case FlowClass::udp: return "udp";
    case FlowClass::other: return "other";
  }
  return "other";
}

std::string to_string(const FlowKey& key) {
  char a[INET6_ADDRSTRLEN] = {}, b[INET6_ADDRSTRLEN] = {};
  const int family = key.v6 ? AF_INET6 : AF_INET;
  inet_ntop(family, key.src.data(), a, sizeof a);
  inet_ntop(family, key.dst.data(), b, sizeof b);
  const FlowClass c = flow_class(key);
  if (c == FlowClass::other) return std::string("other ") + a + " > " + b;
  auto end = [&key](const char* addr, std::uint16_t port) {
    return key.v6 ? "[" + std::string(addr) + "]:" + std::to_string(port) : std::string(addr) + ":" + std::to_string(port);
  };
  return std::string(to_string(c)) + " " + end(a, key.src_port) + " > " + end(b, key.dst_port);
}

}  // namespace ncgw::transport
