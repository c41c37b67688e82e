// TTL / hop limit decrement: the incremental checksum equals a full recomputation (libtins), and
// packets at 0 or 1 expire unchanged.
#include <gtest/gtest.h>

#include "gateway/forwarder.h"
#include "gateway/icmp.h"
#include "packets.h"

namespace ncgw::gateway {
namespace {

using test::udp4;
using test::udp6;

// The IPv4 header checksum field.
std::uint16_t header_checksum(const std::vector<std::uint8_t>& p) { return static_cast<std::uint16_t>((p[10] << 8) | p[11]); }

TEST(HopLimit, Ipv4DecrementMatchesFreshlyBuiltPacket) {
  for (int ttl = 2; ttl <= 255; ++ttl) {
    auto p = udp4("10.1.0.2", "10.3.0.2", static_cast<std::uint8_t>(ttl));
    const auto expected = udp4("10.1.0.2", "10.3.0.2", static_cast<std::uint8_t>(ttl - 1));
    ASSERT_EQ(decrement_hop_limit(p), HopOutcome::decremented) << "ttl " << ttl;
    ASSERT_EQ(p, expected) << "ttl " << ttl << ": checksum " << std::hex << header_checksum(p) << " vs "
                           << header_checksum(expected);
    ASSERT_EQ(checksum_finish(checksum_add(0, {p.data(), 20})), 0) << "ttl " << ttl;
  }
}

TEST(HopLimit, Ipv4ChecksumCarryCases) {
  // Sweep source addresses so the header checksum takes many values, including ones whose update
  // carries around (RFC 1624's 0x0000 / 0xffff corner).
  int checked = 0;
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; b += 3) {
      const std::string src = "10." + std::to_string(a) + "." + std::to_string(b) + ".1";
      auto p = udp4(src.c_str(), "192.0.2.9", 2, 0);
      ASSERT_EQ(decrement_hop_limit(p), HopOutcome::decremented);
      ASSERT_EQ(checksum_finish(checksum_add(0, {p.data(), 20})), 0) << src;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20000);
}

TEST(HopLimit, Ipv4ExpiresAtOneAndZeroUnchanged) {
  for (std::uint8_t ttl : {0, 1}) {
    auto p = udp4("10.1.0.2", "10.3.0.2", ttl);
    const auto before = p;
    EXPECT_EQ(decrement_hop_limit(p), HopOutcome::expired);
    EXPECT_EQ(p, before);
  }
}

TEST(HopLimit, Ipv6DecrementAndExpiry) {
  auto p = udp6("fd00:1::2", "fd00:3::2", 7);
  EXPECT_EQ(decrement_hop_limit(p), HopOutcome::decremented);
  EXPECT_EQ(p, udp6("fd00:1::2", "fd00:3::2", 6));
  auto q = udp6("fd00:1::2", "fd00:3::2", 1);
  EXPECT_EQ(decrement_hop_limit(q), HopOutcome::expired);
  EXPECT_EQ(q[7], 1);
}

TEST(HopLimit, MalformedIsNotIp) {
  std::vector<std::uint8_t> empty;
  EXPECT_EQ(decrement_hop_limit(empty), HopOutcome::not_ip);
  std::vector<std::uint8_t> short4(19, 0x45);
  EXPECT_EQ(decrement_hop_limit(short4), HopOutcome::not_ip);
  std::vector<std::uint8_t> short6(39, 0x60);
  EXPECT_EQ(decrement_hop_limit(short6), HopOutcome::not_ip);
  std::vector<std::uint8_t> v5(60, 0x50);
  EXPECT_EQ(decrement_hop_limit(v5), HopOutcome::not_ip);
}

}  // namespace
}  // namespace ncgw::gateway
