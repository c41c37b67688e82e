#include "gateway/icmp.h"

#include <algorithm>
#include <cstring>

namespace ncgw::gateway {

namespace {

constexpr std::uint8_t kProtoIcmp = 1;
constexpr std::uint8_t kNextHeaderIcmp6 = 58;
constexpr std::size_t kIcmp4AnswerLimit = 576;
constexpr std::uint8_t kAnswerHopLimit = 64;

// Writes a 16-bit value big-endian at `p`.
void put16(std::uint8_t* p, std::uint32_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 8);
  p[1] = static_cast<std::uint8_t>(v);
}

// True for IPv4 addresses no ICMP error may be about: 0/8, 127/8, 224/4 and above (multicast,
// reserved, broadcast).
bool v4_special(const std::uint8_t* a) { return a[0] == 0 || a[0] == 127 || a[0] >= 224; }

// True for the IPv6 unspecified, loopback and multicast addresses.
bool v6_special(const std::uint8_t* a) {
  if (a[0] == 0xff) return true;
  return std::all_of(a, a + 15, [](std::uint8_t b) { return b == 0; }) && a[15] <= 1;
}

// ICMPv4 types that are errors (RFC 1812 4.3.2.7: no errors about errors).
bool icmp4_is_error(std::uint8_t type) { return type == 3 || type == 4 || type == 5 || type == 11 || type == 12; }

bool may_answer_v4(std::span<const std::uint8_t> p) {
  const std::size_t ihl = (p[0] & 0x0F) * 4u;
  if (ihl < 20 || p.size() < ihl) return false;
  if (v4_special(p.data() + 12) || v4_special(p.data() + 16)) return false;
  const unsigned frag_offset = ((p[6] & 0x1F) << 8) | p[7];
  if (frag_offset != 0) return false;
  if (p[9] == kProtoIcmp) return p.size() > ihl && !icmp4_is_error(p[ihl]);
  return true;
}

bool may_answer_v6(std::span<const std::uint8_t> p) {
  if (v6_special(p.data() + 8) || v6_special(p.data() + 24)) return false;
  if (p[6] == kNextHeaderIcmp6) return p.size() > 40 && p[40] >= 128;  // types < 128 are errors
  return true;
}

// The ICMPv4 type / code of `kind`, and its 32-bit field after the checksum (RFC 792, RFC 1191).
struct Icmp4Head {
  std::uint8_t type, code;
  std::uint32_t rest;
};
Icmp4Head icmp4_head(IcmpError kind, std::uint32_t mtu) {
  if (kind == IcmpError::packet_too_big) return {3, 4, std::min<std::uint32_t>(mtu, 0xFFFF)};
  return {11, 0, 0};  // time exceeded; code 0: TTL exceeded in transit
}

// Writes a 32-bit value big-endian at `p`.
void put32(std::uint8_t* p, std::uint32_t v) {
  put16(p, v >> 16);
  put16(p + 2, v & 0xFFFF);
}

std::size_t build_v4(IcmpError kind, std::uint32_t mtu, std::span<const std::uint8_t> expired,
                     const transport::IpAddress& source, std::span<std::uint8_t> out) {
  const std::size_t quoted = std::min(expired.size(), kIcmp4AnswerLimit - 28);
  const std::size_t total = 28 + quoted;
  if (out.size() < total) return 0;
  std::uint8_t* ip = out.data();
  std::memset(ip, 0, 28);
  ip[0] = 0x45;
  put16(ip + 2, static_cast<std::uint32_t>(total));
  ip[8] = kAnswerHopLimit;
  ip[9] = kProtoIcmp;
  std::memcpy(ip + 12, source.bytes.data(), 4);
  std::memcpy(ip + 16, expired.data() + 12, 4);   // back to the expired packet's source
  put16(ip + 10, checksum_finish(checksum_add(0, {ip, 20})));
  std::uint8_t* icmp = ip + 20;
  const Icmp4Head head = icmp4_head(kind, mtu);
  icmp[0] = head.type;
  icmp[1] = head.code;
  put32(icmp + 4, head.rest);
  std::memcpy(icmp + 8, expired.data(), quoted);
  put16(icmp + 2, checksum_finish(checksum_add(0, {icmp, 8 + quoted})));
  return total;
}

std::size_t build_v6(IcmpError kind, std::uint32_t mtu, std::span<const std::uint8_t> expired,
                     const transport::IpAddress& source, std::span<std::uint8_t> out) {
  const std::size_t quoted = std::min(expired.size(), kMaxIcmpAnswer - 48);
  const std::size_t payload = 8 + quoted;
  if (out.size() < 40 + payload) return 0;
  std::uint8_t* ip = out.data();
  std::memset(ip, 0, 48);
  ip[0] = 0x60;
  put16(ip + 4, static_cast<std::uint32_t>(payload));
  ip[6] = kNextHeaderIcmp6;
  ip[7] = kAnswerHopLimit;
  std::memcpy(ip + 8, source.bytes.data(), 16);
  std::memcpy(ip + 24, expired.data() + 8, 16);
  std::uint8_t* icmp = ip + 40;
  if (kind == IcmpError::packet_too_big) {
    icmp[0] = 2;  // packet too big (RFC 4443 3.2): code 0, the MTU in the 32 bits after the checksum
    put32(icmp + 4, mtu);
  } else {
    icmp[0] = 3;  // time exceeded; code 0: hop limit exceeded in transit
  }
  std::memcpy(icmp + 8, expired.data(), quoted);
  const std::uint8_t pseudo_tail[8] = {0, 0, static_cast<std::uint8_t>(payload >> 8),
                                       static_cast<std::uint8_t>(payload), 0, 0, 0, kNextHeaderIcmp6};
  std::uint32_t sum = checksum_add(0, {ip + 8, 32});   // source and destination addresses
  sum = checksum_add(sum, pseudo_tail);
  put16(icmp + 2, checksum_finish(checksum_add(sum, {icmp, payload})));
  return 40 + payload;
}

}  // namespace

bool may_answer_with_icmp_error(std::span<const std::uint8_t> packet) {
  if (packet.empty()) return false;
  const unsigned version = packet[0] >> 4;
  if (version == 4 && packet.size() >= 20) return may_answer_v4(packet);
  if (version == 6 && packet.size() >= 40) return may_answer_v6(packet);
  return false;
}

bool must_not_fragment(std::span<const std::uint8_t> packet) {
  if (packet.empty()) return false;
  const unsigned version = packet[0] >> 4;
  if (version == 6) return true;
  return version == 4 && packet.size() >= 20 && (packet[6] & 0x40) != 0;
}

std::size_t build_icmp_error(IcmpError kind, std::span<const std::uint8_t> packet, const transport::IpAddress& source,
                             std::uint32_t mtu, std::span<std::uint8_t> out) {
  if (!may_answer_with_icmp_error(packet)) return 0;
  const bool v6 = (packet[0] >> 4) == 6;
  if (v6 != source.v6) return 0;
  return v6 ? build_v6(kind, mtu, packet, source, out) : build_v4(kind, mtu, packet, source, out);
}

std::size_t build_time_exceeded(std::span<const std::uint8_t> expired, const transport::IpAddress& source,
                                std::span<std::uint8_t> out) {
  return build_icmp_error(IcmpError::time_exceeded, expired, source, 0, out);
}

}  // namespace ncgw::gateway
