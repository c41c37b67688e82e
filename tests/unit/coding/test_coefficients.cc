// The coefficient generator is the documented splitmix64 byte stream, with the prefix property.
#include <gtest/gtest.h>

#include <array>
#include <set>

#include "coding/coefficients.h"

namespace ncgw::coding {
namespace {

// An independent transcription of docs/coding-wire.md "Coefficients".
std::uint8_t spec_coefficient(std::uint32_t seed, std::size_t i) {
  std::uint64_t state = seed;
  std::uint64_t z = 0;
  for (std::size_t w = 0; w <= i / 8; ++w) {
    state += 0x9E3779B97F4A7C15ULL;
    z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
  }
  return static_cast<std::uint8_t>(z >> (8 * (i % 8)));
}

TEST(Coefficients, MatchTheDocumentedGenerator) {
  for (std::uint32_t seed : {0U, 1U, 0xDEADBEEFU, 0xFFFFFFFFU, 12345U}) {
    std::array<std::uint8_t, 64> v{};
    coefficient_stream(seed, v);
    for (std::size_t i = 0; i < v.size(); ++i) {
      EXPECT_EQ(v[i], spec_coefficient(seed, i)) << seed << " " << i;
      EXPECT_EQ(coefficient_at(seed, i), v[i]);
    }
  }
}

TEST(Coefficients, MatchTheWireDocumentTestVectors) {
  // docs/coding-wire.md lists these, computed by an independent Python transcription.
  const struct { std::uint32_t seed; std::array<std::uint8_t, 16> c; } vectors[] = {
      {0, {0xaf, 0xcd, 0x1d, 0x7b, 0x39, 0xa8, 0x20, 0xe2, 0xf4, 0x65, 0xb9, 0xa1, 0x6a, 0x9e, 0x78, 0x6e}},
      {1, {0xc1, 0x5c, 0x02, 0x89, 0xec, 0x2d, 0x0a, 0x91, 0x67, 0xec, 0x8e, 0x65, 0xa1, 0x8d, 0xeb, 0xbe}},
      {0xDEADBEEF,
       {0x9b, 0xeb, 0xc9, 0x68, 0x0f, 0xb9, 0xdf, 0x4a, 0x22, 0x09, 0xa1, 0x41, 0x31, 0x6a, 0x58, 0xde}},
  };
  for (const auto& v : vectors) {
    std::array<std::uint8_t, 16> got{};
    coefficient_stream(v.seed, got);
    EXPECT_EQ(got, v.c) << v.seed;
  }
}

TEST(Coefficients, PrefixProperty) {
  std::array<std::uint8_t, 64> full{};
  coefficient_stream(777, full);
  for (std::size_t w = 1; w <= 64; ++w) {
    std::array<std::uint8_t, 64> part{};
    coefficient_stream(777, {part.data(), w});
    for (std::size_t i = 0; i < w; ++i) ASSERT_EQ(part[i], full[i]);
    for (std::size_t i = w; i < 64; ++i) ASSERT_EQ(part[i], 0);
  }
}

TEST(Coefficients, RoughlyUniformAndSeedsDistinct) {
  std::array<unsigned, 256> hist{};
  for (std::uint32_t s = 0; s < 4000; ++s)
    for (std::size_t i = 0; i < 64; ++i) ++hist[coefficient_at(s, i)];
  // 256000 draws, 1000 per value: every bucket within 6 sigma (~190)
  for (unsigned c = 0; c < 256; ++c) EXPECT_NEAR(hist[c], 1000.0, 190.0) << c;
  std::set<std::uint32_t> seeds;
  for (std::uint64_t cw = 0; cw < 200; ++cw)
    for (std::uint32_t r = 0; r < 20; ++r) seeds.insert(repair_seed(99, cw, r));
  EXPECT_EQ(seeds.size(), 4000U);
}

}  // namespace
}  // namespace ncgw::coding
