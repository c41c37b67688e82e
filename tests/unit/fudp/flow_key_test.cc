// Flow keys read by offset: IPv4/IPv6, TCP/UDP ports, class other per host pair, fragments,
// extension headers and malformed input.
#include <gtest/gtest.h>

#include "gateway/fudp/flow_key.h"
#include "packets.h"

namespace ncgw::fudp {
namespace {

TEST(FlowKey, Ipv4UdpAndTcp) {
  const auto u = parse_flow(test::udp4(7, 4000, 5201));
  ASSERT_TRUE(u);
  EXPECT_EQ(flow_class(*u), FlowClass::udp);
  EXPECT_EQ(u->src_port, 4000);
  EXPECT_EQ(u->dst_port, 5201);
  EXPECT_EQ(to_string(*u), "udp 10.0.0.7:4000 > 10.0.1.1:5201");
  const auto t = parse_flow(test::tcp4(7, 4000, 5201));
  ASSERT_TRUE(t);
  EXPECT_EQ(flow_class(*t), FlowClass::tcp);
  EXPECT_NE(*t, *u);
}

TEST(FlowKey, OtherProtocolsAreOneFlowPerHostPair) {
  const auto icmp = parse_flow(test::v4(1, 7, 1, 0x0800, 0x1234));
  const auto gre = parse_flow(test::v4(47, 7, 1, 0x1111, 0x2222));
  ASSERT_TRUE(icmp && gre);
  EXPECT_EQ(flow_class(*icmp), FlowClass::other);
  EXPECT_EQ(*icmp, *gre);
  EXPECT_EQ(icmp->src_port, 0);
}

TEST(FlowKey, LaterIpv4FragmentHasNoPorts) {
  auto p = test::udp4(7, 4000, 5201);
  p[7] = 0xB9;  // fragment offset 185 (x 8 bytes)
  const auto k = parse_flow(p);
  ASSERT_TRUE(k);
  EXPECT_EQ(flow_class(*k), FlowClass::udp);
  EXPECT_EQ(k->src_port, 0);
}

TEST(FlowKey, Ipv6WithAndWithoutHopByHop) {
  const auto a = parse_flow(test::v6(17, 1234, 53, false));
  const auto b = parse_flow(test::v6(17, 1234, 53, true));
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(a->v6);
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(to_string(*a), "udp [fd00::2]:1234 > [fd00::1:3]:53");
}

TEST(FlowKey, MalformedAndTruncated) {
  EXPECT_FALSE(parse_flow({}));
  std::vector<std::uint8_t> junk(30, 0x11);
  EXPECT_FALSE(parse_flow(junk));
  auto shortv4 = test::udp4(7, 1, 2, 28);
  shortv4.resize(22);  // ports cut off: still a UDP flow, ports zero
  const auto k = parse_flow(shortv4);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->src_port, 0);
  auto badihl = test::udp4(7, 1, 2, 28);
  badihl[0] = 0x4F;  // IHL 60 > 28 bytes
  EXPECT_FALSE(parse_flow(badihl));
  auto v6short = test::v6(17, 1, 2, false, 40);
  v6short.resize(39);
  EXPECT_FALSE(parse_flow(v6short));
}

}  // namespace
}  // namespace ncgw::fudp
