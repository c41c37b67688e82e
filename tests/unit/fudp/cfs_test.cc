// One common flow set in virtual time: a TCP flow beside a greedy UDP flow. The period's rates,
// Algorithm 1's allocation with the tunnel's estimate and with eq. 3, the bucket holding the UDP
// flow to it (drops counted), the band keeping a fair allocation, limits lifted without TCP.
#include <gtest/gtest.h>

#include <cmath>

#include "gateway/fudp/cfs.h"
#include "packets.h"

namespace ncgw::fudp {
namespace {

using transport::time_from_ns;
using transport::TimePoint;

constexpr std::int64_t kMs = 1'000'000;

// Feeds one period of 1000 ms: every ms `tcp` TCP and `udp` UDP packets of 1000 bytes.
// Returns the UDP bytes that passed.
std::uint64_t feed(Cfs& c, std::int64_t start_ms, int tcp, int udp) {
  const auto t = test::tcp4(1, 40000, 5201);
  const auto u = test::udp4(2, 40001, 5202);
  std::uint64_t passed = 0;
  for (std::int64_t ms = 0; ms < 1000; ++ms) {
    const TimePoint now = time_from_ns((start_ms + ms) * kMs);
    for (int i = 0; i < tcp; ++i) EXPECT_TRUE(c.on_packet(t, now));
    for (int i = 0; i < udp; ++i) passed += c.on_packet(u, now) ? u.size() : 0;
  }
  return passed;
}

Settings one_second() {
  Settings s;
  s.period_ms = 1000;
  return s;
}

const Flow& udp_flow(const Cfs& c) {
  const auto k = parse_flow(test::udp4(2, 40001, 5202));
  return *c.table().find(*k);
}

TEST(Cfs, GreedyUdpHeldToHalfTheTunnelBesideOneTcpFlow) {
  Cfs c(one_second(), time_from_ns(0));
  feed(c, 0, 1, 4);  // TCP 1 MB/s, UDP 4 MB/s offered
  c.on_period(time_from_ns(1000 * kMs), 2e6);  // the tunnel carries 2 MB/s
  const PeriodReport& r = c.report();
  EXPECT_EQ(r.tcp_flows, 1u);
  EXPECT_EQ(r.udp_flows, 1u);
  EXPECT_DOUBLE_EQ(r.tcp_sample_Bps, 1e6);
  EXPECT_DOUBLE_EQ(r.prediction.w, 1e6);
  EXPECT_DOUBLE_EQ(r.udp_average_Bps, 4e6);
  EXPECT_TRUE(r.tunnel_estimate);
  EXPECT_TRUE(r.reallocated);
  EXPECT_DOUBLE_EQ(udp_flow(c).allocation_Bps, 1e6);  // min(4e6, 2e6 / 2)
  // Next period: the bucket passes 1 MB/s plus its initial depth (50 kB) and drops the rest.
  const std::uint64_t passed = feed(c, 1000, 1, 4);
  EXPECT_NEAR(static_cast<double>(passed), 1e6 + 50e3, 2e3);
  EXPECT_EQ(udp_flow(c).dropped_bytes, 4'000'000u - passed);
  EXPECT_EQ(c.counters().dropped_bytes, 4'000'000u - passed);
}

TEST(Cfs, Eq3WithoutATunnelEstimate) {
  Cfs c(one_second(), time_from_ns(0));
  feed(c, 0, 1, 4);
  c.on_period(time_from_ns(1000 * kMs), std::nullopt);
  EXPECT_FALSE(c.report().tunnel_estimate);
  EXPECT_DOUBLE_EQ(c.report().available_Bps, 5e6);     // W 1e6 + UDP 4e6
  EXPECT_DOUBLE_EQ(udp_flow(c).allocation_Bps, 2.5e6);  // min(4e6, 5e6 / 2)
}

TEST(Cfs, TunnelEstimateCapsEq3ButDoesNotRaiseIt) {
  Cfs c(one_second(), time_from_ns(0));
  feed(c, 0, 1, 4);
  c.on_period(time_from_ns(1000 * kMs), 10e6);          // the tunnel could carry 10 MB/s
  EXPECT_TRUE(c.report().tunnel_estimate);
  EXPECT_DOUBLE_EQ(c.report().available_Bps, 5e6);      // eq. 3: W 1e6 + UDP 4e6 < 10e6
  EXPECT_DOUBLE_EQ(udp_flow(c).allocation_Bps, 2.5e6);
}

TEST(Cfs, WithoutTcpTheTunnelEstimateIsShared) {
  Cfs c(one_second(), time_from_ns(0));
  feed(c, 0, 0, 4);
  c.on_period(time_from_ns(1000 * kMs), 3e6);
  EXPECT_DOUBLE_EQ(c.report().available_Bps, 3e6);
  EXPECT_DOUBLE_EQ(udp_flow(c).allocation_Bps, 3e6);
}

TEST(Cfs, AckOnlyTcpFlowsAreNotElasticDemand) {
  Cfs c(one_second(), time_from_ns(0));
  const auto ack = test::tcp4(9, 5201, 40009, 52);  // a download's ACK stream the other way
  for (std::int64_t ms = 0; ms < 1000; ++ms) c.on_packet(ack, time_from_ns(ms * kMs));
  feed(c, 0, 1, 4);
  c.on_period(time_from_ns(1000 * kMs), 2e6);
  EXPECT_EQ(c.report().tcp_flows, 1u);
  EXPECT_EQ(c.report().thin_tcp_flows, 1u);
  EXPECT_DOUBLE_EQ(c.report().available_Bps, 2e6 - 52e3);  // its rate is taken off BW
  EXPECT_DOUBLE_EQ(udp_flow(c).allocation_Bps, (2e6 - 52e3) / 2);
}

TEST(Cfs, UdpInsideTheBandIsLeftAlone) {
  Cfs c(one_second(), time_from_ns(0));
  feed(c, 0, 1, 1);  // both 1 MB/s: band [1e6, 1e6] holds the UDP average
  c.on_period(time_from_ns(1000 * kMs), 2e6);
  EXPECT_FALSE(c.report().reallocated);
  EXPECT_FALSE(std::isfinite(udp_flow(c).allocation_Bps));
}

TEST(Cfs, LimitsLiftedWhenTcpLeavesAndNoEstimate) {
  Cfs c(one_second(), time_from_ns(0));
  feed(c, 0, 1, 4);
  c.on_period(time_from_ns(1000 * kMs), std::nullopt);
  ASSERT_TRUE(std::isfinite(udp_flow(c).allocation_Bps));
  feed(c, 1000, 0, 4);
  c.on_period(time_from_ns(2000 * kMs), std::nullopt);
  EXPECT_EQ(c.report().tcp_flows, 0u);
  EXPECT_FALSE(std::isfinite(udp_flow(c).allocation_Bps));
}

TEST(Cfs, NotShapingMeasuresButNeverDrops) {
  Settings s = one_second();
  s.shape = false;
  Cfs c(s, time_from_ns(0));
  feed(c, 0, 1, 4);
  c.on_period(time_from_ns(1000 * kMs), 2e6);
  EXPECT_DOUBLE_EQ(udp_flow(c).allocation_Bps, 1e6);
  EXPECT_EQ(feed(c, 1000, 1, 4), 4'000'000u);
  EXPECT_EQ(c.counters().dropped_packets, 0u);
}

TEST(Cfs, IdleFlowsExpireAtThePeriod) {
  Settings s = one_second();
  s.idle_timeout_ms = 1500;
  Cfs c(s, time_from_ns(0));
  feed(c, 0, 1, 1);
  c.on_period(time_from_ns(1000 * kMs), std::nullopt);
  EXPECT_EQ(c.table().size(), 2u);
  c.on_period(time_from_ns(2000 * kMs), std::nullopt);  // last seen at 999 ms: idle 1001 ms
  EXPECT_EQ(c.table().size(), 2u);
  c.on_period(time_from_ns(3000 * kMs), std::nullopt);
  EXPECT_EQ(c.table().size(), 0u);
  EXPECT_EQ(c.table().counters().expired, 2u);
}

}  // namespace
}  // namespace ncgw::fudp
