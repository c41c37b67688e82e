// Internet checksum against hand-computed values (RFC 1071 example, a textbook IPv4 header).
#include <gtest/gtest.h>

#include <vector>

#include "gateway/icmp.h"

namespace ncgw::gateway {
namespace {

TEST(Checksum, Rfc1071Example) {
  // RFC 1071 section 3: words 0001 f203 f4f5 f6f7 sum to 2ddf0, folded ddf2, complement 220d.
  const std::vector<std::uint8_t> bytes{0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
  EXPECT_EQ(checksum_finish(checksum_add(0, bytes)), 0x220d);
}

TEST(Checksum, Ipv4HeaderByHand) {
  // 45 00 0073 0000 4000 40 11 [b861] c0a80001 c0a800c7: checksum field zero gives b861.
  std::vector<std::uint8_t> h{0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
                              0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7};
  EXPECT_EQ(checksum_finish(checksum_add(0, h)), 0xb861);
  h[10] = 0xb8;
  h[11] = 0x61;
  EXPECT_EQ(checksum_finish(checksum_add(0, h)), 0);   // a correct header sums to zero
}

TEST(Checksum, OddLengthPadsWithZero) {
  const std::vector<std::uint8_t> odd{0x12, 0x34, 0x56};
  const std::vector<std::uint8_t> even{0x12, 0x34, 0x56, 0x00};
  EXPECT_EQ(checksum_finish(checksum_add(0, odd)), checksum_finish(checksum_add(0, even)));
  EXPECT_EQ(checksum_finish(checksum_add(0, odd)), static_cast<std::uint16_t>(~(0x1234 + 0x5600)));
}

}  // namespace
}  // namespace ncgw::gateway
