// IpAddress / Prefix parsing, formatting, containment and host-bit clearing.
#include <gtest/gtest.h>

#include "config/prefix.h"

namespace ncgw::config {
namespace {

// Parses a prefix the test knows to be valid.
Prefix P(const char* text) {
  const auto p = parse_prefix(text);
  EXPECT_TRUE(p.has_value()) << text;
  return p.value_or(Prefix{});
}

// Parses an address the test knows to be valid.
IpAddress A(const char* text) {
  const auto a = parse_ip(text);
  EXPECT_TRUE(a.has_value()) << text;
  return a.value_or(IpAddress{});
}

TEST(config_prefix, ParsesIpv4) {
  const IpAddress a = A("10.1.2.3");
  EXPECT_FALSE(a.v6);
  EXPECT_EQ(a.bytes[0], 10);
  EXPECT_EQ(a.bytes[3], 3);
  EXPECT_EQ(a.bytes[4], 0);
  EXPECT_EQ(to_string(a), "10.1.2.3");
}

TEST(config_prefix, ParsesIpv6Canonically) {
  const IpAddress a = A("FD00:0:0::0001");
  EXPECT_TRUE(a.v6);
  EXPECT_EQ(a.bytes[0], 0xfd);
  EXPECT_EQ(a.bytes[15], 1);
  EXPECT_EQ(to_string(a), "fd00::1");
}

TEST(config_prefix, RejectsBadAddresses) {
  for (const char* bad : {"", "10.1.2", "10.1.2.256", "10.1.2.3.4", " 10.1.2.3", "10.1.2.3 ", "fd00:::1",
                          "fe80::1%eth0", "host.example", "1.2.3.4/24", "0x0a.0.0.1"}) {
    EXPECT_FALSE(parse_ip(bad).has_value()) << bad;
  }
}

TEST(config_prefix, ParsesPrefixesAndBareAddresses) {
  EXPECT_EQ(P("10.1.0.0/16").length, 16);
  EXPECT_EQ(P("10.1.0.7").length, 32);
  EXPECT_EQ(P("fd00::/8").length, 8);
  EXPECT_EQ(P("fd00::1").length, 128);
  EXPECT_EQ(P("0.0.0.0/0").length, 0);
  EXPECT_EQ(to_string(P("fd00:0::/64")), "fd00::/64");
}

TEST(config_prefix, RejectsBadPrefixes) {
  for (const char* bad : {"10.0.0.0/33", "fd00::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/+8",
                          "10.0.0.0/8/8", "10.0.0.0/ 8", "10.0.0.0/0008", "/8", "10.0.0.0/a"}) {
    EXPECT_FALSE(parse_prefix(bad).has_value()) << bad;
  }
}

TEST(config_prefix, ContainsComparesLeadingBitsOfTheSameFamily) {
  EXPECT_TRUE(contains(P("10.1.0.0/16"), A("10.1.255.3")));
  EXPECT_FALSE(contains(P("10.1.0.0/16"), A("10.2.0.1")));
  EXPECT_TRUE(contains(P("10.1.2.128/25"), A("10.1.2.200")));
  EXPECT_FALSE(contains(P("10.1.2.128/25"), A("10.1.2.127")));
  EXPECT_TRUE(contains(P("0.0.0.0/0"), A("192.0.2.1")));
  EXPECT_FALSE(contains(P("0.0.0.0/0"), A("::1")));
  EXPECT_FALSE(contains(P("::/0"), A("10.0.0.1")));
  EXPECT_TRUE(contains(P("fd00:1::/32"), A("fd00:1:ffff::9")));
  EXPECT_FALSE(contains(P("fd00:1::/32"), A("fd00:2::9")));
  EXPECT_TRUE(contains(P("10.0.0.5/32"), A("10.0.0.5")));
  EXPECT_FALSE(contains(P("10.0.0.5/32"), A("10.0.0.4")));
}

TEST(config_prefix, NetworkOfClearsHostBits) {
  EXPECT_EQ(to_string(network_of(P("10.1.2.3/16"))), "10.1.0.0/16");
  EXPECT_EQ(to_string(network_of(P("10.1.2.255/25"))), "10.1.2.128/25");
  EXPECT_EQ(to_string(network_of(P("10.1.2.3/0"))), "0.0.0.0/0");
  EXPECT_EQ(to_string(network_of(P("fd00:1:2:3::9/52"))), "fd00:1:2::/52");
  EXPECT_EQ(network_of(P("10.1.2.3/32")), P("10.1.2.3/32"));
}

}  // namespace
}  // namespace ncgw::config
