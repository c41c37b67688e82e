// unwrap_serial: counters that travel as their low bits come back as the nearest 64-bit value.
#include <gtest/gtest.h>

#include "transports/common/serial_number.h"

namespace ncgw::transport {
namespace {

TEST(SerialNumber, PicksTheNearestValueAcrossTheWrap) {
  EXPECT_EQ(unwrap_serial<24>(100, 101), 101u);
  EXPECT_EQ(unwrap_serial<24>(100, 99), 99u);
  EXPECT_EQ(unwrap_serial<24>(0xFFFFF0, 0x000005), 0x1000005u);        // forward over 2^24
  EXPECT_EQ(unwrap_serial<24>(0x1000005, 0xFFFFF0), 0xFFFFF0u);        // back over 2^24
  EXPECT_EQ(unwrap_serial<24>(0x5000000000ULL, 7), 0x5000000007ULL);
  EXPECT_EQ(unwrap_serial<24>(3, 0xFFFFFF), 0xFFFFFFu);                // would go negative: as is
  EXPECT_EQ(unwrap_serial<16>(0x12345, 0x2344), 0x12344u);
}

TEST(SerialNumber, HalfTheSpaceAheadIsTheLimit) {
  // 2^23 - 1 ahead is ahead; 2^23 is read as behind, as RFC 1982 leaves it undefined.
  EXPECT_EQ(unwrap_serial<24>(1u << 24, (1u << 23) - 1), (1u << 24) + (1u << 23) - 1);
  EXPECT_EQ(unwrap_serial<24>(1u << 24, 1u << 23), 1u << 23);
}

TEST(SerialNumber, IgnoresBitsAboveTheWireWidth) {
  EXPECT_EQ(unwrap_serial<16>(0x10000, 0xABC0001), 0x10001u);
}

}  // namespace
}  // namespace ncgw::transport
