// The forwarder's decision per delivered packet: TUN for local or unrouted destinations, another
// peer with the hop limit decremented, or an ICMP answer routed back towards the source.
#include <gtest/gtest.h>

#include <vector>

#include "gateway/forwarder.h"
#include "gateway/icmp.h"
#include "packets.h"

namespace ncgw::gateway {
namespace {

using test::udp4;
using test::udp6;

config::Prefix prefix(const char* text) { return *config::parse_prefix(text); }

// gw2 of a cascade: peer 0 is gw1 (10.1.0.0/24 behind it), peer 1 is gw3 (10.3.0.0/24, fd00:3::/64).
struct Cascade : ::testing::Test {
  Cascade() {
    routes.add(prefix("10.1.0.0/24"), 0);
    routes.add(prefix("10.3.0.0/24"), 1);
    routes.add(prefix("fd00:3::/64"), 1);
  }
  RouteTable routes;
  std::vector<config::Prefix> tun{prefix("10.99.0.2/24"), prefix("fd99::2/64")};
  Forwarder fwd{routes, tun};
};

TEST_F(Cascade, RoutedDestinationIsForwardedWithTtlDecremented) {
  auto p = udp4("10.1.0.2", "10.3.0.2", 63);
  const auto d = fwd.route_delivery(p);
  EXPECT_EQ(d.action, ForwardAction::forward);
  EXPECT_EQ(d.peer, 1u);
  EXPECT_EQ(p, udp4("10.1.0.2", "10.3.0.2", 62));
}

TEST_F(Cascade, UnroutedDestinationGoesToTheTunUntouched) {
  for (const char* dst : {"10.99.0.2", "192.168.12.1", "10.2.0.9"}) {
    auto p = udp4("10.1.0.2", dst, 1);
    const auto before = p;
    EXPECT_EQ(fwd.route_delivery(p).action, ForwardAction::to_tun) << dst;
    EXPECT_EQ(p, before) << dst;   // the kernel decrements (and answers) for what it forwards
  }
}

TEST_F(Cascade, ExpiryAnswersTowardsTheSourcePeer) {
  auto p = udp4("10.1.0.2", "10.3.0.2", 1);
  const auto d = fwd.route_delivery(p);
  EXPECT_EQ(d.action, ForwardAction::answer_peer);
  EXPECT_EQ(d.peer, 0u);
  const auto a = fwd.answer();
  ASSERT_EQ(a.size(), 28 + p.size());
  EXPECT_EQ(a[9], 1);     // ICMP
  EXPECT_EQ(a[20], 11);   // time exceeded
  EXPECT_EQ(std::vector<std::uint8_t>(a.begin() + 12, a.begin() + 16), (std::vector<std::uint8_t>{10, 99, 0, 2}));
  EXPECT_EQ(std::vector<std::uint8_t>(a.begin() + 16, a.begin() + 20), (std::vector<std::uint8_t>{10, 1, 0, 2}));
}

TEST_F(Cascade, ExpiryFromAnUnroutedSourceAnswersThroughTheTun) {
  auto p = udp4("172.16.5.5", "10.3.0.2", 1);
  EXPECT_EQ(fwd.route_delivery(p).action, ForwardAction::answer_tun);
  EXPECT_EQ(fwd.answer().size(), 28 + p.size());
}

TEST_F(Cascade, Ipv6ExpiryUsesTheTunIpv6Address) {
  auto p = udp6("fd00:1::2", "fd00:3::2", 1);
  const auto d = fwd.route_delivery(p);
  EXPECT_EQ(d.action, ForwardAction::answer_tun);   // fd00:1:: is not routed to a peer here
  const auto a = fwd.answer();
  ASSERT_GE(a.size(), 48u);
  EXPECT_EQ(a[40], 3);
  EXPECT_EQ(a[8], 0xfd);
  EXPECT_EQ(a[9], 0x99);
  EXPECT_EQ(a[23], 2);
}

TEST(Forwarder, ExpiryWithoutATunAddressOfThatFamilyIsDropped) {
  RouteTable routes;
  routes.add(*config::parse_prefix("fd00:3::/64"), 0);
  const std::vector<config::Prefix> tun{*config::parse_prefix("10.99.0.2/24")};
  Forwarder fwd(routes, tun);
  auto p = udp6("fd00:1::2", "fd00:3::2", 1);
  EXPECT_EQ(fwd.route_delivery(p).action, ForwardAction::no_answer);
  EXPECT_TRUE(fwd.answer().empty());
}

TEST_F(Cascade, ExpiredIcmpErrorIsDroppedSilently) {
  auto p = test::icmp4("10.1.0.2", "10.3.0.2", 1, Tins::ICMP::TIME_EXCEEDED);
  EXPECT_EQ(fwd.route_delivery(p).action, ForwardAction::no_answer);
}

TEST_F(Cascade, TooBigAnswersTowardsTheSourceWithTheTunnelsMtu) {
  auto p = udp4("10.1.0.2", "10.3.0.2", 64, 1400);
  p[6] |= 0x40;   // DF (the header checksum is not checked here)
  const auto d = fwd.too_big(p, 1304);
  EXPECT_EQ(d.action, ForwardAction::answer_peer);   // the source sits behind gw1
  EXPECT_EQ(d.peer, 0u);
  const auto a = fwd.answer();
  ASSERT_EQ(a.size(), 576u);
  EXPECT_EQ(a[20], 3);   // destination unreachable
  EXPECT_EQ(a[21], 4);   // fragmentation needed and DF set
  EXPECT_EQ((a[26] << 8) | a[27], 1304);
  auto local = udp4("10.99.0.7", "10.3.0.2", 64, 1400);   // a source on the gateway's own side
  local[6] |= 0x40;
  EXPECT_EQ(fwd.too_big(local, 1304).action, ForwardAction::answer_tun);
  // Written to this host's TUN, the answer must not come from one of this host's addresses (the
  // kernel drops a martian source): it comes from the refused packet's destination.
  const auto tun_answer = fwd.answer();
  ASSERT_GE(tun_answer.size(), 20u);
  EXPECT_EQ(std::vector<std::uint8_t>(tun_answer.begin() + 12, tun_answer.begin() + 16),
            (std::vector<std::uint8_t>{10, 3, 0, 2}));
  EXPECT_EQ(std::vector<std::uint8_t>(tun_answer.begin() + 16, tun_answer.begin() + 20),
            (std::vector<std::uint8_t>{10, 99, 0, 7}));
}

TEST_F(Cascade, TooBigWithoutDontFragmentOrAboutIcmpErrorsIsNotAnswered) {
  EXPECT_EQ(fwd.too_big(udp4("10.1.0.2", "10.3.0.2", 64, 1400), 1304).action, ForwardAction::no_answer);
  auto err = test::icmp4("10.1.0.2", "10.3.0.2", 64, Tins::ICMP::DEST_UNREACHABLE);
  err[6] |= 0x40;
  EXPECT_EQ(fwd.too_big(err, 40).action, ForwardAction::no_answer);
  EXPECT_EQ(fwd.too_big(udp6("fd00:9::2", "fd00:3::2", 64, 1400), 1284).action, ForwardAction::answer_tun);
  EXPECT_EQ(fwd.too_big(std::vector<std::uint8_t>{0x45, 0, 0}, 1304).action, ForwardAction::no_answer);
}

}  // namespace
}  // namespace ncgw::gateway
