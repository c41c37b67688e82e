// The prior channel pooled with observed Gilbert-Elliott fits.
#include <gtest/gtest.h>

#include "coding/loss_prior.h"

namespace ncgw::coding {
namespace {

// A prior with round figures (the defaults are weaker: see LossPrior).
const LossPrior kPrior{0.10, 3.0, 100};

// A fit of `samples` outcomes with loss rate e and mean burst b (p from the stationary relation).
GeEstimate observed(double e, double b, std::uint64_t samples) {
  GeEstimate g;
  g.r = 1.0 / b;
  g.p = e * g.r / (1 - e);
  g.loss_rate = e;
  g.mean_burst = b;
  g.samples = samples;
  g.valid = samples >= 100;
  return g;
}

TEST(LossPrior, WithoutEvidenceThePriorChannelIsTheEstimate) {
  const GeEstimate g = with_prior(GeEstimate{}, 0, kPrior);
  EXPECT_TRUE(g.valid);
  EXPECT_DOUBLE_EQ(g.loss_rate, 0.10);
  EXPECT_DOUBLE_EQ(g.mean_burst, 3.0);
  EXPECT_NEAR(g.p / (g.p + g.r), 0.10, 1e-12);  // the chain the chooser sees has the prior's loss rate
}

TEST(LossPrior, CleanTransmissionsWearItDown) {
  // A hundred clean outcomes halve the prior's loss rate; ten thousand leave about a hundredth.
  EXPECT_NEAR(with_prior(observed(0, 1, 100), 100, kPrior).loss_rate, 0.05, 1e-12);
  const GeEstimate g = with_prior(observed(0, 1, 10'000), 10'000, kPrior);
  EXPECT_NEAR(g.loss_rate, 10.0 / 10'100, 1e-12);
  EXPECT_NEAR(g.p / (g.p + g.r), g.loss_rate, 2e-4);
}

TEST(LossPrior, MuchEvidenceOutweighsIt) {
  const GeEstimate g = with_prior(observed(0.05, 2, 500), 100'000, kPrior);
  EXPECT_NEAR(g.loss_rate, 0.05, 0.0005);
  EXPECT_NEAR(g.mean_burst, 2.0, 0.02);
  EXPECT_EQ(g.samples, 500u);  // the short window's own count is kept
}

TEST(LossPrior, EvidenceIsAllOutcomesSeenNotTheWindowsShare) {
  // The same short-window fit, once at the start of a session and once after much traffic.
  const GeEstimate early = with_prior(observed(0.01, 1, 100), 100, kPrior);
  const GeEstimate late = with_prior(observed(0.01, 1, 100), 50'000, kPrior);
  EXPECT_NEAR(early.loss_rate, 0.055, 1e-12);
  EXPECT_NEAR(late.loss_rate, 0.01, 0.0002);
}

TEST(LossPrior, ZeroWeightLeavesTheFitAsItWas) {
  const GeEstimate few = observed(0.0, 1, 40);
  const GeEstimate g = with_prior(few, 40, LossPrior{0.10, 3, 0});
  EXPECT_FALSE(g.valid);
  EXPECT_EQ(g.loss_rate, 0.0);
}

}  // namespace
}  // namespace ncgw::coding
