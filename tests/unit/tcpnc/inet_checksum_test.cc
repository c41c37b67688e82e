// The Internet checksum: the word-at-a-time sum gives the RFC 1071 checksum of a plain 16-bit
// big-endian word sum for every length, alignment and starting sum, also when chained.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "transports/common/inet_checksum.h"

namespace ncgw::transport {
namespace {

// RFC 1071 by the book: 16-bit big-endian words, an odd last byte padded with zero.
std::uint16_t reference(std::uint32_t start, std::span<const std::uint8_t> bytes) {
  std::uint64_t sum = start;
  for (std::size_t i = 0; i < bytes.size(); i += 2)
    sum += std::uint32_t{bytes[i]} << 8 | (i + 1 < bytes.size() ? bytes[i + 1] : 0);
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<std::uint16_t>(~sum);
}

TEST(InetChecksum, MatchesTheWordByWordSumForEveryLengthAndAlignment) {
  std::mt19937_64 rng(1071);
  std::vector<std::uint8_t> buf(2100);
  for (int round = 0; round < 3000; ++round) {
    for (auto& b : buf) b = static_cast<std::uint8_t>(rng());
    if (round % 7 == 0) std::fill(buf.begin(), buf.end(), 0xFF);  // sums that wrap many times
    if (round % 11 == 0) std::fill(buf.begin(), buf.end(), 0);
    const std::size_t offset = rng() % 8, length = rng() % 2000;
    const auto bytes = std::span<const std::uint8_t>(buf).subspan(offset, length);
    const auto start = static_cast<std::uint32_t>(rng() % (1u << 20));
    ASSERT_EQ(checksum_finish(checksum_add(start, bytes)), reference(start, bytes)) << offset << " " << length;
    const std::size_t cut = (rng() % (length + 1)) & ~std::size_t{1};  // chained at an even offset
    const std::uint32_t chained = checksum_add(checksum_add(start, bytes.first(cut)), bytes.subspan(cut));
    ASSERT_EQ(checksum_finish(chained), reference(start, bytes)) << offset << " " << length << " " << cut;
  }
}

}  // namespace
}  // namespace ncgw::transport
