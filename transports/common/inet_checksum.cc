#include "transports/common/inet_checksum.h"

#include <bit>
#include <cstring>

namespace ncgw::transport {
namespace {

// Folds a one's-complement sum to 16 bits (0 stays 0; a non-zero multiple of 0xFFFF becomes 0xFFFF).
std::uint32_t fold16(std::uint64_t s) {
  s = (s & 0xFFFFFFFFu) + (s >> 32);
  s = (s & 0xFFFFFFFFu) + (s >> 32);
  s = (s & 0xFFFF) + (s >> 16);
  s = (s & 0xFFFF) + (s >> 16);
  s = (s & 0xFFFF) + (s >> 16);
  return static_cast<std::uint32_t>(s);
}

}  // namespace

std::uint32_t checksum_add(std::uint32_t sum, std::span<const std::uint8_t> bytes) {
  // 32-bit words in the machine's byte order into a 64-bit accumulator (no carry lost below 2^32
  // words): the one's-complement sum is the same up to a byte swap of the folded result (RFC 1071,
  // "byte order independence"), and 2^16 = 1 modulo 0xFFFF makes 32-bit words sum like 16-bit ones.
  const std::uint8_t* p = bytes.data();
  std::size_t n = bytes.size();
  std::uint64_t acc = 0;
  for (; n >= 4; p += 4, n -= 4) {
    std::uint32_t w;
    std::memcpy(&w, p, 4);
    acc += w;
  }
  std::uint32_t words = fold16(acc);
  if constexpr (std::endian::native == std::endian::little) words = (words & 0xFF) << 8 | words >> 8;
  std::uint64_t s = std::uint64_t{sum} + words;
  if (n >= 2) {
    s += std::uint32_t{p[0]} << 8 | p[1];
    p += 2;
    n -= 2;
  }
  if (n > 0) s += std::uint32_t{p[0]} << 8;
  return fold16(s);
}

std::uint16_t checksum_finish(std::uint32_t sum) {
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<std::uint16_t>(~sum);
}

}  // namespace ncgw::transport
