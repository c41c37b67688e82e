#include "transports/common/tcp_mss.h"

#include <cstddef>
#include <optional>

#include "transports/common/byte_order.h"

namespace ncgw::transport {
namespace {

constexpr std::uint8_t kProtoTcp = 6;
constexpr std::uint8_t kTcpFlagSyn = 0x02;
constexpr std::uint8_t kOptEnd = 0, kOptNop = 1, kOptMss = 2, kOptMssLength = 4;

// Offset of the TCP header of an unfragmented IPv4 or extension-less IPv6 packet.
std::optional<std::size_t> tcp_offset(std::span<const std::uint8_t> p) {
  if (p.size() < 20) return std::nullopt;
  if (p[0] >> 4 == 4) {
    const std::size_t ihl = static_cast<std::size_t>(p[0] & 0x0F) * 4;
    const bool fragment = ((p[6] & 0x1F) | p[7]) != 0 || (p[6] & 0x20) != 0;
    if (ihl < 20 || p[9] != kProtoTcp || fragment) return std::nullopt;
    return ihl;
  }
  if (p[0] >> 4 == 6 && p.size() >= 40 && p[6] == kProtoTcp) return std::size_t{40};
  return std::nullopt;
}

// Offset of the MSS option's value in a SYN, if it has one.
std::optional<std::size_t> mss_value_offset(std::span<const std::uint8_t> p) {
  const auto tcp = tcp_offset(p);
  if (!tcp || p.size() < *tcp + 20 || (p[*tcp + 13] & kTcpFlagSyn) == 0) return std::nullopt;
  const std::size_t end = *tcp + static_cast<std::size_t>(p[*tcp + 12] >> 4) * 4;
  if (end > p.size()) return std::nullopt;
  for (std::size_t at = *tcp + 20; at < end;) {
    if (p[at] == kOptEnd) break;
    if (p[at] == kOptNop) { ++at; continue; }
    if (at + 1 >= end || p[at + 1] < 2) break;
    if (p[at] == kOptMss && p[at + 1] == kOptMssLength && at + 4 <= end) return at + 2;
    at += p[at + 1];
  }
  return std::nullopt;
}

// RFC 1624 eq. 3: HC' = ~(~HC + ~m + m') for a 16-bit word changing from m to m'.
std::uint16_t checksum_replace(std::uint16_t hc, std::uint16_t m, std::uint16_t m2) {
  std::uint32_t sum = static_cast<std::uint16_t>(~hc) + static_cast<std::uint32_t>(static_cast<std::uint16_t>(~m)) + m2;
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<std::uint16_t>(~sum);
}

}  // namespace

std::uint16_t syn_mss(std::span<const std::uint8_t> packet) {
  const auto at = mss_value_offset(packet);
  return at ? get_be16(packet.data() + *at) : 0;
}

bool clamp_syn_mss(std::span<std::uint8_t> packet, std::uint16_t mss) {
  const auto at = mss_value_offset(packet);
  if (!at || get_be16(packet.data() + *at) <= mss) return false;
  const std::size_t tcp = *tcp_offset(packet);
  const std::uint16_t old_word = get_be16(packet.data() + *at);
  put_be16(packet.data() + *at, mss);
  // A value at an odd offset from the TCP header straddles two checksum words: the sum of the
  // byte-swapped values changes the same way (one's-complement sums commute with byte swaps).
  const bool odd = (*at - tcp) % 2 != 0;
  const auto swap = [](std::uint16_t v) { return static_cast<std::uint16_t>(v << 8 | v >> 8); };
  const std::uint16_t m = odd ? swap(old_word) : old_word, m2 = odd ? swap(mss) : mss;
  put_be16(packet.data() + tcp + 16, checksum_replace(get_be16(packet.data() + tcp + 16), m, m2));
  return true;
}

}  // namespace ncgw::transport
