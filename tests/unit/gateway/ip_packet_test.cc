// Destination reads by offset for IPv4 and IPv6, and rejection of non-IP input.
#include <gtest/gtest.h>

#include <vector>

#include "gateway/ip_packet.h"

namespace ncgw::gateway {
namespace {

TEST(IpPacket, ReadsIpv4Destination) {
  std::vector<std::uint8_t> p(20, 0);
  p[0] = 0x45;
  p[16] = 10; p[17] = 2; p[18] = 0; p[19] = 7;
  auto d = ip_destination(p);
  ASSERT_TRUE(d);
  EXPECT_EQ(config::to_string(*d), "10.2.0.7");
}

TEST(IpPacket, ReadsIpv6Destination) {
  std::vector<std::uint8_t> p(40, 0);
  p[0] = 0x60;
  p[24] = 0xfd; p[39] = 1;
  auto d = ip_destination(p);
  ASSERT_TRUE(d);
  EXPECT_EQ(config::to_string(*d), "fd00::1");
}

TEST(IpPacket, RejectsShortAndUnknown) {
  EXPECT_FALSE(ip_destination({}));
  std::vector<std::uint8_t> p(19, 0);
  p[0] = 0x45;
  EXPECT_FALSE(ip_destination(p));
  std::vector<std::uint8_t> v6short(39, 0);
  v6short[0] = 0x60;
  EXPECT_FALSE(ip_destination(v6short));
  std::vector<std::uint8_t> bad_ihl(20, 0);
  bad_ihl[0] = 0x44;
  EXPECT_FALSE(ip_destination(bad_ihl));
  std::vector<std::uint8_t> v5(40, 0);
  v5[0] = 0x50;
  EXPECT_FALSE(ip_destination(v5));
}

}  // namespace
}  // namespace ncgw::gateway
