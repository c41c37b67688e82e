// Eq. 1-3, the fairness band and Algorithm 1 against figures computed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gateway/fudp/algorithm.h"

namespace ncgw::fudp {
namespace {

TEST(Prediction, FirstSampleIsTheEstimate) {
  const TcpPrediction p = predict({}, 300, 0.875, 0.25);
  EXPECT_TRUE(p.primed);
  EXPECT_DOUBLE_EQ(p.w, 300);  // W_0 = W
  EXPECT_DOUBLE_EQ(p.d, 0);
}

TEST(Prediction, Eq1And2ByHand) {
  // W = 0.125 * 100 + 0.875 * 200 = 187.5;  D = 0.75 * 10 + 0.25 * |200 - 100| = 32.5
  const TcpPrediction p = predict({100, 10, true}, 200, 0.875, 0.25);
  EXPECT_DOUBLE_EQ(p.w, 187.5);
  EXPECT_DOUBLE_EQ(p.d, 32.5);
  // Next: W = 0.125 * 187.5 + 0.875 * 150 = 154.6875;  D = 0.75 * 32.5 + 0.25 * 37.5 = 33.75
  const TcpPrediction q = predict(p, 150, 0.875, 0.25);
  EXPECT_DOUBLE_EQ(q.w, 154.6875);
  EXPECT_DOUBLE_EQ(q.d, 33.75);
}

TEST(Prediction, DeviationUsesThePreviousPrediction) {
  // |W(f_T) - W_k|: W_k is the prediction before this update (100), not the new one.
  const TcpPrediction p = predict({100, 0, true}, 100, 0.5, 0.5);
  EXPECT_DOUBLE_EQ(p.d, 0);
  const TcpPrediction q = predict({100, 0, true}, 60, 0.5, 0.5);
  EXPECT_DOUBLE_EQ(q.w, 80);
  EXPECT_DOUBLE_EQ(q.d, 20);
}

TEST(FairnessBand, BoundariesAreInside) {
  // n = 2: W_ad = (187.5 - 32.5) / 2 = 77.5, W_au = (187.5 + 32.5) / 2 = 110
  const FairnessBand b = fairness_band({187.5, 32.5, true}, 2);
  EXPECT_DOUBLE_EQ(b.low, 77.5);
  EXPECT_DOUBLE_EQ(b.high, 110);
  EXPECT_TRUE(in_band(77.5, b));
  EXPECT_TRUE(in_band(110, b));
  EXPECT_TRUE(in_band(90, b));
  EXPECT_FALSE(in_band(std::nextafter(77.5, 0.0), b));
  EXPECT_FALSE(in_band(std::nextafter(110.0, 1e9), b));
}

TEST(FairnessBand, ZeroDeviationIsAPoint) {
  const FairnessBand b = fairness_band({300, 0, true}, 3);
  EXPECT_TRUE(in_band(100, b));
  EXPECT_FALSE(in_band(100.001, b));
  EXPECT_FALSE(in_band(99.999, b));
}

TEST(AvailableBandwidth, Eq3) {
  const std::vector<double> udp{10, 20};
  EXPECT_DOUBLE_EQ(available_bandwidth({187.5, 32.5, true}, udp), 217.5);
  EXPECT_DOUBLE_EQ(available_bandwidth({187.5, 32.5, true}, {}), 187.5);
}

// Runs Algorithm 1 and returns the shares.
std::vector<double> run(double bw, const std::vector<Demand>& flows) {
  std::vector<double> out(flows.size());
  std::vector<std::uint32_t> order(flows.size());
  max_min(bw, flows, out, order);
  return out;
}

TEST(MaxMin, SmallUdpKeepsItsDemandGreedyGetsTheFairShare) {
  // BW 12, four flows: UDP 2 -> min(2, 12/4) = 2; UDP 10 -> min(10, 10/3) = 3.333...;
  // the TCP flows (elastic, last) split 6.666... evenly.
  const auto s = run(12, {{10, true}, {0, false}, {2, true}, {0, false}});
  EXPECT_DOUBLE_EQ(s[2], 2);
  EXPECT_DOUBLE_EQ(s[0], 10.0 / 3);
  EXPECT_DOUBLE_EQ(s[1], 10.0 / 3);
  EXPECT_DOUBLE_EQ(s[3], 10.0 / 3);
}

TEST(MaxMin, TwoGreedyUdpAndFourTcpGetASixthEach) {
  const auto s = run(20e6 / 8, {{1.25e6, true}, {1e6, true}, {0, false}, {0, false}, {0, false}, {0, false}});
  for (double x : s) EXPECT_NEAR(x, 20e6 / 8 / 6, 1e-6);
}

TEST(MaxMin, AllDemandsFitEveryoneGetsTheirs) {
  const auto s = run(100, {{10, true}, {20, true}, {30, true}});
  EXPECT_DOUBLE_EQ(s[0], 10);
  EXPECT_DOUBLE_EQ(s[1], 20);
  EXPECT_DOUBLE_EQ(s[2], 30);
}

TEST(MaxMin, UdpOnlyEqualSplitAndNoNegativeBandwidth) {
  const auto s = run(9, {{100, true}, {100, true}, {100, true}});
  EXPECT_DOUBLE_EQ(s[0], 3);
  EXPECT_DOUBLE_EQ(s[2], 3);
  const auto z = run(-5, {{100, true}, {0, false}});
  EXPECT_DOUBLE_EQ(z[0], 0);
  EXPECT_DOUBLE_EQ(z[1], 0);
}

}  // namespace
}  // namespace ncgw::fudp
