// RoundCostMeter: the path capacity a coded retransmission round leaves unused, measured over the
// min RTT after the round starts.
#include <gtest/gtest.h>

#include "transports/tcpnc/round_cost.h"

namespace ncgw::tcpnc {
namespace {

using namespace std::chrono_literals;
using transport::TimePoint;

constexpr double kRate = 10'000;  // datagrams a second
constexpr auto kHold = 100ms;     // min RTT: 1,000 datagrams at kRate

TimePoint at(std::chrono::milliseconds t) { return transport::time_from_ns(1'000'000'000) + t; }

TEST(RoundCostMeter, AssumedUntilTheFirstRoundIsMeasured) {
  RoundCostMeter m;
  EXPECT_EQ(m.cost(1'000), 1'000);
  m.start(at(0ms), 0, kRate);
  m.update(at(50ms), 100, kHold);  // the hold is not over yet
  EXPECT_EQ(m.samples(), 0u);
  EXPECT_EQ(m.cost(1'000), 1'000);
}

TEST(RoundCostMeter, AStalledHostCostsWhatThePathDidNotCarry) {
  RoundCostMeter m;
  m.start(at(0ms), 5'000, kRate);
  m.update(at(100ms), 5'300, kHold);  // 300 sent (the entrance queue), then nothing
  EXPECT_EQ(m.samples(), 1u);
  EXPECT_DOUBLE_EQ(m.cost(0), 700);
}

TEST(RoundCostMeter, SendingAroundThePathRateCostsNothingOnAverage) {
  // A saturating source paced in gain cycles sends a little more or less than the rate over any
  // one hold: the signed shortfalls cancel, where clipped ones would add up to a cost.
  RoundCostMeter m;
  std::uint64_t sent = 0;
  for (int i = 0; i < 40; ++i) {
    const auto t0 = std::chrono::milliseconds(1'000 * i);
    m.start(at(t0), sent, kRate);
    sent += i % 2 == 0 ? 1'100 : 900;
    m.update(at(t0 + kHold), sent, kHold);
  }
  EXPECT_EQ(m.samples(), 40u);
  EXPECT_LT(m.cost(1'000), 60);
}

TEST(RoundCostMeter, RoundsWithinAHoldShareOneMeasurement) {
  RoundCostMeter m;
  m.start(at(0ms), 0, kRate);
  m.start(at(30ms), 0, kRate);  // ignored: the first round's hold covers it
  m.update(at(100ms), 0, kHold);
  EXPECT_EQ(m.samples(), 1u);
  EXPECT_DOUBLE_EQ(m.cost(0), 1'000);
  m.start(at(200ms), 0, 0);  // no path rate yet: nothing to measure against
  m.update(at(400ms), 0, kHold);
  EXPECT_EQ(m.samples(), 1u);
}

TEST(RoundCostMeter, RecentRoundsWeighMost) {
  RoundCostMeter m;
  std::uint64_t sent = 0;
  for (int i = 0; i < 20; ++i) {  // hosts that stalled, then hosts that kept sending
    const auto t0 = std::chrono::milliseconds(1'000 * i);
    m.start(at(t0), sent, kRate);
    sent += i < 10 ? 0 : 1'000;
    m.update(at(t0 + kHold), sent, kHold);
  }
  EXPECT_LT(m.cost(0), 1'000 * 0.1);  // 0.75^10 of the stalled rounds' cost remains
}

}  // namespace
}  // namespace ncgw::tcpnc
