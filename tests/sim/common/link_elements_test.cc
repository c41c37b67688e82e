// Tests of the link elements and Link: exact timing of delay and serialisation, drop-tail limits,
// loss statistics within bounds, exact masks, reordering.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "tests/sim/common/link.h"
#include "transports/common/byte_order.h"

namespace ncgw::sim {
namespace {

using namespace std::chrono_literals;

constexpr std::uint64_t kSeed = 20261122;

TimePoint at_ms(double ms) { return transport::time_from_ns(static_cast<std::int64_t>(ms * 1e6)); }

TEST(LinkTest, DelayAndRateGiveExactArrivalTimes) {
  std::printf("seed=none (deterministic)\n");
  Link link;
  link.add<Bottleneck>(8e6, 0, 0);  // 1000 bytes take exactly 1 ms
  link.add<Delay>(10ms);
  std::vector<std::uint8_t> pkt(1000);
  for (int i = 0; i < 5; ++i) link.push(pkt, at_ms(0));
  link.push(pkt, at_ms(20));  // the line is idle again by then
  std::vector<TimePoint> arrivals;
  while (auto p = link.pop_arrival(at_ms(100))) arrivals.push_back(p->arrival);
  ASSERT_EQ(arrivals.size(), 6u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(arrivals[i], at_ms(10 + i + 1)) << i;
  EXPECT_EQ(arrivals[5], at_ms(31));
}

TEST(LinkTest, OverheadBytesCountInSerialisation) {
  Link link;
  link.add<Bottleneck>(8e6, 28, 0);
  std::vector<std::uint8_t> pkt(972);
  link.push(pkt, at_ms(0));
  EXPECT_EQ(link.next_arrival(), at_ms(1));
}

TEST(LinkTest, DropTailQueueLimitsPackets) {
  Link link;
  auto& q = link.add<Bottleneck>(8e6, 0, 4);
  std::vector<std::uint8_t> pkt(1000);
  for (int i = 0; i < 10; ++i) link.push(pkt, at_ms(0));
  EXPECT_EQ(q.dropped(), 6u);
  EXPECT_EQ(q.max_occupancy(), 4u);
  // After 2 ms two packets have left: two more fit.
  for (int i = 0; i < 3; ++i) link.push(pkt, at_ms(2));
  EXPECT_EQ(q.dropped(), 7u);
}

TEST(LinkTest, DropTailQueueLimitsBytes) {
  Link link;
  auto& q = link.add<Bottleneck>(8e6, 0, 0, 2500);
  std::vector<std::uint8_t> pkt(1000);
  for (int i = 0; i < 4; ++i) link.push(pkt, at_ms(0));
  EXPECT_EQ(q.dropped(), 2u);
}

TEST(LinkTest, BernoulliDropCountWithinFourSigma) {
  std::printf("seed=%llu\n", static_cast<unsigned long long>(kSeed));
  Link link;
  auto& loss = link.add<BernoulliLoss>(0.1, kSeed);
  std::vector<std::uint8_t> pkt(10);
  const int n = 100000;
  for (int i = 0; i < n; ++i) link.push(pkt, at_ms(0));
  const double sigma = std::sqrt(n * 0.1 * 0.9);
  EXPECT_NEAR(static_cast<double>(loss.dropped()), n * 0.1, 4 * sigma);
  EXPECT_EQ(link.dropped() + link.clear_in_flight(), static_cast<std::size_t>(n));
}

TEST(LinkTest, GilbertElliottMatchesRateAndBurst) {
  std::printf("seed=%llu\n", static_cast<unsigned long long>(kSeed));
  Link link;
  auto& ge = link.add_element(GilbertElliottLoss::from_rate_and_burst(0.05, 3.0, kSeed));
  std::vector<std::uint8_t> pkt(10);
  const int n = 200000;
  std::uint64_t bursts = 0, prev_dropped = 0;
  bool in_burst = false;
  for (int i = 0; i < n; ++i) {
    link.push(pkt, at_ms(0));
    const bool lost = ge.dropped() != prev_dropped;
    prev_dropped = ge.dropped();
    if (lost && !in_burst) ++bursts;
    in_burst = lost;
  }
  const double rate = static_cast<double>(ge.dropped()) / n;
  const double mean_burst = static_cast<double>(ge.dropped()) / bursts;
  EXPECT_NEAR(rate, 0.05, 0.005);
  EXPECT_NEAR(mean_burst, 3.0, 0.15);
}

TEST(LinkTest, LossMaskDropsExactIndices) {
  Link link;
  link.add<LossMask>(std::vector<std::pair<std::uint64_t, std::uint64_t>>{{2, 4}, {7, 7}});
  std::vector<std::uint8_t> pkt(1);
  for (int i = 0; i < 10; ++i) {
    pkt[0] = static_cast<std::uint8_t>(i);
    link.push(pkt, at_ms(i));
  }
  std::vector<int> got;
  while (auto p = link.pop_arrival(at_ms(100))) got.push_back(p->bytes[0]);
  EXPECT_EQ(got, (std::vector<int>{0, 1, 5, 6, 8, 9}));
}

TEST(LinkTest, DropIfSeesBytesAndIndex) {
  Link link;
  link.add<DropIf>([](std::span<const std::uint8_t> b, std::uint64_t i, TimePoint) { return b[0] == 3 || i == 0; });
  std::vector<std::uint8_t> pkt(1);
  for (int i = 0; i < 5; ++i) { pkt[0] = static_cast<std::uint8_t>(i); link.push(pkt, at_ms(0)); }
  EXPECT_EQ(link.dropped(), 2u);
}

TEST(LinkTest, ReorderLetsLaterPacketsPass) {
  std::printf("seed=%llu\n", static_cast<unsigned long long>(kSeed));
  Link link;
  link.add<Delay>(5ms);
  auto& r = link.add<Reorder>(0.2, 3ms, kSeed);
  std::vector<std::uint8_t> pkt(4);
  for (std::uint32_t i = 0; i < 1000; ++i) {
    transport::put_be32(pkt.data(), i);
    link.push(pkt, at_ms(i * 0.1));
  }
  int inversions = 0;
  std::uint32_t prev = 0;
  std::size_t count = 0;
  while (auto p = link.pop_arrival(at_ms(1000))) {
    const std::uint32_t v = transport::get_be32(p->bytes.data());
    if (count++ > 0 && v < prev) ++inversions;
    prev = v;
  }
  EXPECT_EQ(count, 1000u);
  EXPECT_GT(r.reordered(), 150u);
  EXPECT_GT(inversions, 100);
}

TEST(LinkTest, DuplicationAndMutation) {
  std::printf("seed=%llu\n", static_cast<unsigned long long>(kSeed));
  Link link;
  link.set_duplication(0.5, 1ms, kSeed);
  link.set_mutator([](std::vector<std::uint8_t>& b, std::uint64_t i) { b[0] = static_cast<std::uint8_t>(i + 100); });
  std::vector<std::uint8_t> pkt(1);
  for (int i = 0; i < 1000; ++i) link.push(pkt, at_ms(0));
  std::size_t count = 0;
  while (auto p = link.pop_arrival(at_ms(10))) { EXPECT_EQ(p->bytes[0], static_cast<std::uint8_t>(p->order + 100)); ++count; }
  EXPECT_EQ(count, 1000 + link.duplicated());
  EXPECT_NEAR(static_cast<double>(link.duplicated()), 500.0, 80.0);
}

}  // namespace
}  // namespace ncgw::sim
