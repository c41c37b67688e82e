// Test helpers: minimal IPv4/IPv6 packets with a TCP or UDP header, built byte by byte.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace ncgw::fudp::test {

// An IPv4 packet of `size` bytes (at least 28) from 10.0.0.<src> to 10.0.1.<dst>.
inline std::vector<std::uint8_t> v4(std::uint8_t protocol, std::uint8_t src, std::uint8_t dst,
                                    std::uint16_t sport, std::uint16_t dport, std::size_t size = 1000) {
  std::vector<std::uint8_t> p(size, 0);
  p[0] = 0x45;
  p[2] = static_cast<std::uint8_t>(size >> 8);
  p[3] = static_cast<std::uint8_t>(size);
  p[8] = 64;
  p[9] = protocol;
  p[12] = 10, p[13] = 0, p[14] = 0, p[15] = src;
  p[16] = 10, p[17] = 0, p[18] = 1, p[19] = dst;
  p[20] = static_cast<std::uint8_t>(sport >> 8);
  p[21] = static_cast<std::uint8_t>(sport);
  p[22] = static_cast<std::uint8_t>(dport >> 8);
  p[23] = static_cast<std::uint8_t>(dport);
  return p;
}

// A UDP/IPv4 packet.
inline std::vector<std::uint8_t> udp4(std::uint8_t src, std::uint16_t sport, std::uint16_t dport, std::size_t size = 1000) {
  return v4(17, src, 1, sport, dport, size);
}
// A TCP/IPv4 packet.
inline std::vector<std::uint8_t> tcp4(std::uint8_t src, std::uint16_t sport, std::uint16_t dport, std::size_t size = 1000) {
  return v4(6, src, 1, sport, dport, size);
}

// An IPv6 packet fd00::<src> -> fd00::1:<dst>, optionally behind one hop-by-hop option header.
inline std::vector<std::uint8_t> v6(std::uint8_t protocol, std::uint16_t sport, std::uint16_t dport, bool hop_by_hop,
                                    std::size_t size = 200) {
  std::vector<std::uint8_t> p(std::max<std::size_t>(size, 52), 0);  // trimmed to `size` at the end
  p[0] = 0x60;
  p[6] = hop_by_hop ? 0 : protocol;
  p[7] = 64;
  p[8] = 0xfd, p[23] = 2;
  p[24] = 0xfd, p[37] = 1, p[39] = 3;
  std::size_t l4 = 40;
  if (hop_by_hop) {
    p[40] = protocol;
    p[41] = 0;  // 8 bytes
    l4 = 48;
  }
  p[l4] = static_cast<std::uint8_t>(sport >> 8);
  p[l4 + 1] = static_cast<std::uint8_t>(sport);
  p[l4 + 2] = static_cast<std::uint8_t>(dport >> 8);
  p[l4 + 3] = static_cast<std::uint8_t>(dport);
  p.resize(size);
  return p;
}

}  // namespace ncgw::fudp::test
