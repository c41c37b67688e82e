// Coding header codec: round trips, rejection of malformed headers, unwrapping of wire ids.
#include <gtest/gtest.h>

#include <vector>

#include "coding/decoder.h"
#include "coding/header.h"
#include "transports/common/rng.h"

namespace ncgw::coding {
namespace {

TEST(Header, RoundTripsEveryKind) {
  transport::Rng rng(3);
  for (int i = 0; i < 2000; ++i) {
    CodingHeader h;
    h.kind = static_cast<Kind>(rng.below(3));
    h.width = static_cast<std::uint8_t>(1 + rng.below(kMaxWindow));
    h.index = h.kind == Kind::kSource ? static_cast<std::uint8_t>(rng.below(h.width)) : 0;
    h.closed = rng.bernoulli(0.5);
    h.cw_id = static_cast<std::uint16_t>(rng.next());   // the wire's 16 bits
    h.base = static_cast<std::uint32_t>(rng.next());
    if (h.kind == Kind::kSeeded) h.seed = static_cast<std::uint32_t>(rng.next());
    if (h.kind == Kind::kExplicit)
      for (unsigned j = 0; j < h.width; ++j) h.coefs[j] = static_cast<std::uint8_t>(rng.next());
    std::vector<std::uint8_t> buf(kMaxHeaderSize + 5, 0xEE);
    const std::size_t n = write_header(h, buf);
    ASSERT_EQ(n, header_size(h));
    const auto pc = parse_combination({buf.data(), n + 5});
    ASSERT_TRUE(pc.has_value());
    EXPECT_EQ(pc->payload.size(), 5U);
    const CodingHeader& g = pc->header;
    EXPECT_EQ(g.kind, h.kind);
    EXPECT_EQ(g.closed, h.closed);
    EXPECT_EQ(g.width, h.width);
    EXPECT_EQ(g.index, h.index);
    EXPECT_EQ(g.cw_id, h.cw_id);
    EXPECT_EQ(g.base, h.base);
    EXPECT_EQ(g.seed, h.seed);
    if (h.kind == Kind::kExplicit)
      for (unsigned j = 0; j < h.width; ++j) EXPECT_EQ(g.coefs[j], h.coefs[j]);
  }
}

TEST(Header, SizesFollowTheLayout) {
  CodingHeader h;
  h.width = 10;
  EXPECT_EQ(header_size(h), kFixedHeaderSize);
  h.kind = Kind::kSeeded;
  EXPECT_EQ(header_size(h), kFixedHeaderSize + kSeedSize);
  h.kind = Kind::kExplicit;
  EXPECT_EQ(header_size(h), kFixedHeaderSize + 10);
}

TEST(Header, RejectsMalformed) {
  CodingHeader h;
  h.kind = Kind::kSource;
  h.width = 4;
  h.index = 2;
  std::vector<std::uint8_t> good(kFixedHeaderSize);
  ASSERT_EQ(write_header(h, good), kFixedHeaderSize);
  ASSERT_TRUE(parse_combination(good));
  auto bad = good;
  bad[kOffFlags] = static_cast<std::uint8_t>((1 << 6) | (bad[kOffFlags] & 0x3F));  // version 1
  EXPECT_FALSE(parse_combination(bad));
  bad = good;
  bad[kOffFlags] |= 0x30;  // kind 3
  EXPECT_FALSE(parse_combination(bad));
  bad = good;
  bad[kOffFlags] |= 0x01;  // reserved bit
  EXPECT_FALSE(parse_combination(bad));
  bad = good;
  bad[kOffWidth] = 0;
  EXPECT_FALSE(parse_combination(bad));
  bad = good;
  bad[kOffWidth] = kMaxWindow + 1;
  EXPECT_FALSE(parse_combination(bad));
  bad = good;
  bad[kOffIndex] = 4;  // index >= width
  EXPECT_FALSE(parse_combination(bad));
  EXPECT_FALSE(parse_combination({good.data(), kFixedHeaderSize - 1}));
  h.kind = Kind::kExplicit;
  std::vector<std::uint8_t> ex(kFixedHeaderSize + 4);
  ASSERT_EQ(write_header(h, ex), 0U);  // explicit with index != 0 is invalid
  h.index = 0;
  ASSERT_EQ(write_header(h, ex), kFixedHeaderSize + 4);
  EXPECT_FALSE(parse_combination({ex.data(), ex.size() - 1}));  // truncated coefficients
  EXPECT_EQ(write_header(h, {ex.data(), 3}), 0U);
}

TEST(Header, Unwrap32PicksTheNearestValue) {
  EXPECT_EQ(unwrap32(100, 101), 101U);
  EXPECT_EQ(unwrap32(100, 99), 99U);
  EXPECT_EQ(unwrap32(0xFFFFFFF0ULL, 0x00000005), 0x100000005ULL);
  EXPECT_EQ(unwrap32(0x100000005ULL, 0xFFFFFFF0U), 0xFFFFFFF0ULL);
  EXPECT_EQ(unwrap32(0x500000000ULL, 7), 0x500000007ULL);
  EXPECT_EQ(unwrap32(3, 0xFFFFFFFFU), 0xFFFFFFFFULL);  // would go negative: taken as is
}

TEST(Header, CwIdsTravelAsTheirLow16Bits) {
  CodingHeader h;
  h.kind = Kind::kSource;
  h.width = 3;
  h.index = 2;
  h.cw_id = 0x1234ABCDULL;
  h.base = 0x1122334455ULL;
  std::vector<std::uint8_t> b(kFixedHeaderSize + 4, 0);
  ASSERT_EQ(write_header(h, b), 9u);   // flags, width, index, cw id (2), base (4)
  EXPECT_EQ(b[kOffCwId], 0xAB);
  EXPECT_EQ(b[kOffCwId + 1], 0xCD);
  EXPECT_EQ(b[kOffBase], 0x22);
  const auto pc = parse_combination(b);
  ASSERT_TRUE(pc);
  EXPECT_EQ(pc->header.cw_id, 0xABCDu);
  EXPECT_EQ(pc->payload.size(), 4u);
  // Unwrapped next to what the receiver expects, across the 16-bit wrap in both directions.
  EXPECT_EQ(unwrap_cw_id(0x1234ABC0ULL, 0xABCD), 0x1234ABCDULL);
  EXPECT_EQ(unwrap_cw_id(0x0001FFF0ULL, 0x0005), 0x00020005ULL);
  EXPECT_EQ(unwrap_cw_id(0x00020005ULL, 0xFFF0), 0x0001FFF0ULL);
  EXPECT_EQ(unwrap_cw_id(3, 0xFFFF), 0xFFFFULL);   // would go negative: taken as is
}

TEST(Header, DecoderRefusesMoreSlotsThanCwIdsCanName) {
  DecoderConfig c;
  c.max_n = 1;          // small slots: this test is about their number
  c.max_packet = 16;
  c.max_open = std::size_t{1} << (kCwIdBits - 2);
  EXPECT_NO_THROW(Decoder{c});
  c.max_open += 1;
  EXPECT_THROW(Decoder{c}, std::invalid_argument);
}

}  // namespace
}  // namespace ncgw::coding
