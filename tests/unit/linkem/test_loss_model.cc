// Loss models: Bernoulli rate, Gilbert-Elliott rate and burst length, deterministic pattern.
#include <gtest/gtest.h>

#include <vector>

#include "netns-scenarios/linkem/loss_model.h"

namespace linkem {
namespace {

using ncgw::transport::Rng;

// Drop sequence of `n` frames under `l` with seed `seed`.
std::vector<bool> run(const LossSettings& l, std::uint64_t seed, int n) {
  LossModel m;
  m.configure(l);
  Rng rng(seed);
  std::vector<bool> out;
  for (int i = 1; i <= n; ++i) out.push_back(m.lose(rng, static_cast<std::uint64_t>(i)));
  return out;
}

// Fraction of dropped frames.
double rate(const std::vector<bool>& v) {
  std::size_t d = 0;
  for (bool b : v) d += b;
  return static_cast<double>(d) / static_cast<double>(v.size());
}

// Mean length of runs of consecutive drops.
double mean_burst(const std::vector<bool>& v) {
  std::size_t bursts = 0, dropped = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    dropped += v[i];
    if (v[i] && (i == 0 || !v[i - 1])) ++bursts;
  }
  return bursts ? static_cast<double>(dropped) / static_cast<double>(bursts) : 0.0;
}

TEST(LossModel, BernoulliRate) {
  LossSettings l;
  l.kind = LossKind::bernoulli;
  l.rate = 0.05;
  double e = rate(run(l, 42, 1000000));
  EXPECT_NEAR(e, 0.05, 0.001);  // sd = sqrt(.05*.95/1e6) = 0.0002
}

TEST(LossModel, SameSeedSameSequenceOtherSeedDiffers) {
  LossSettings l;
  l.kind = LossKind::bernoulli;
  l.rate = 0.1;
  EXPECT_EQ(run(l, 7, 10000), run(l, 7, 10000));
  EXPECT_NE(run(l, 7, 10000), run(l, 8, 10000));
}

TEST(LossModel, SimpleGilbertRateAndBurstLength) {
  LossSettings l;
  l.kind = LossKind::gilbert;
  l.r = 0.25;                         // mean burst 4
  l.p = 0.05 * l.r / (1 - 0.05);      // stationary loss 5%
  l.loss_good = 0.0;
  l.loss_bad = 1.0;
  auto v = run(l, 3, 2000000);
  EXPECT_NEAR(rate(v), 0.05, 0.002);
  EXPECT_NEAR(mean_burst(v), 4.0, 0.15);
}

TEST(LossModel, GilbertElliottWithLossInBothStates) {
  LossSettings l;
  l.kind = LossKind::gilbert;
  l.p = 0.1;
  l.r = 0.4;                  // P(bad) = 0.2
  l.loss_good = 0.01;
  l.loss_bad = 0.5;
  double expect = 0.8 * 0.01 + 0.2 * 0.5;
  EXPECT_NEAR(rate(run(l, 11, 1000000)), expect, 0.002);
}

TEST(LossModel, PatternDropsExactlyTheNamedFrames) {
  LossSettings l;
  l.kind = LossKind::pattern;
  l.ranges = {{10, 14}, {20, 20}};
  auto v = run(l, 1, 30);
  for (int i = 1; i <= 30; ++i)
    EXPECT_EQ(v[static_cast<std::size_t>(i - 1)], (i >= 10 && i <= 14) || i == 20) << "frame " << i;
}

TEST(LossModel, PatternRepeatsWithPeriod) {
  LossSettings l;
  l.kind = LossKind::pattern;
  l.ranges = {{2, 3}};
  l.period = 10;
  auto v = run(l, 1, 35);
  std::vector<int> dropped;
  for (int i = 1; i <= 35; ++i)
    if (v[static_cast<std::size_t>(i - 1)]) dropped.push_back(i);
  EXPECT_EQ(dropped, (std::vector<int>{2, 3, 12, 13, 22, 23, 32, 33}));
}

}  // namespace
}  // namespace linkem
