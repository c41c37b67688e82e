// Settings grammar of linkem: parsing, errors, round trip.
#include <gtest/gtest.h>

#include "netns-scenarios/linkem/settings.h"

namespace linkem {
namespace {

TEST(Settings, ParsesUnits) {
  std::int64_t ns = 0;
  EXPECT_TRUE(parse_duration("10ms", ns));
  EXPECT_EQ(ns, 10000000);
  EXPECT_TRUE(parse_duration("1.5ms", ns));
  EXPECT_EQ(ns, 1500000);
  EXPECT_TRUE(parse_duration("250us", ns));
  EXPECT_EQ(ns, 250000);
  EXPECT_TRUE(parse_duration("0", ns));
  EXPECT_EQ(ns, 0);
  EXPECT_FALSE(parse_duration("10", ns));   // a non-zero duration needs a unit
  EXPECT_FALSE(parse_duration("10min", ns));
  std::uint64_t bps = 0;
  EXPECT_TRUE(parse_rate("5mbit", bps));
  EXPECT_EQ(bps, 5000000u);
  EXPECT_TRUE(parse_rate("1.5Mbit", bps));
  EXPECT_EQ(bps, 1500000u);
  EXPECT_TRUE(parse_rate("64000", bps));
  EXPECT_EQ(bps, 64000u);
  EXPECT_FALSE(parse_rate("5mb/s", bps));
}

TEST(Settings, AppliesOnlyNamedKeys) {
  DirectionSettings s;
  ASSERT_EQ(apply_spec("delay=10ms rate=3mbit limit=100p", s), "");
  ASSERT_EQ(apply_spec("loss=bernoulli:0.05", s), "");
  EXPECT_EQ(s.delay_ns, 10000000);
  EXPECT_EQ(s.rate_bps, 3000000u);
  EXPECT_EQ(s.limit_packets, 100u);
  EXPECT_EQ(s.loss.kind, LossKind::bernoulli);
  EXPECT_DOUBLE_EQ(s.loss.rate, 0.05);
}

TEST(Settings, ParsesLossModels) {
  DirectionSettings s;
  ASSERT_EQ(apply_spec("loss=gilbert:p=0.01,r=0.25,good=0.001,bad=0.9", s), "");
  EXPECT_EQ(s.loss.kind, LossKind::gilbert);
  EXPECT_DOUBLE_EQ(s.loss.p, 0.01);
  EXPECT_DOUBLE_EQ(s.loss.r, 0.25);
  EXPECT_DOUBLE_EQ(s.loss.loss_good, 0.001);
  EXPECT_DOUBLE_EQ(s.loss.loss_bad, 0.9);
  ASSERT_EQ(apply_spec("loss=pattern:10-14,20@100", s), "");
  EXPECT_EQ(s.loss.kind, LossKind::pattern);
  ASSERT_EQ(s.loss.ranges.size(), 2u);
  EXPECT_EQ(s.loss.ranges[0].first, 10u);
  EXPECT_EQ(s.loss.ranges[0].last, 14u);
  EXPECT_EQ(s.loss.ranges[1].first, 20u);
  EXPECT_EQ(s.loss.period, 100u);
  ASSERT_EQ(apply_spec("loss=2%", s), "");
  EXPECT_EQ(s.loss.kind, LossKind::bernoulli);
  EXPECT_DOUBLE_EQ(s.loss.rate, 0.02);
  ASSERT_EQ(apply_spec("loss=none", s), "");
  EXPECT_EQ(s.loss.kind, LossKind::none);
}

TEST(Settings, RejectsBadTokensAtomically) {
  DirectionSettings s;
  EXPECT_NE(apply_spec("delay=5ms loss=1.5", s), "");      // probability above 1
  EXPECT_EQ(s.delay_ns, 0);                                  // nothing applied on error
  EXPECT_NE(apply_spec("loss=gilbert:p=0.1", s), "");       // r missing
  EXPECT_NE(apply_spec("loss=pattern:14-10", s), "");       // empty range
  EXPECT_NE(apply_spec("bogus=1", s), "");
  EXPECT_NE(apply_spec("delay", s), "");
}

TEST(Settings, RoundTrips) {
  DirectionSettings s;
  ASSERT_EQ(apply_spec("delay=1500us jitter=1ms jitter_dist=normal rate=5mbit overhead=24 "
                       "limit=50p limit_bytes=90000 loss=gilbert:p=0.02,r=0.5,good=0,bad=1 "
                       "loss_ip_only=0 duplicate=0.01 reorder=0.02 jitter_reorders=1", s), "");
  DirectionSettings t;
  ASSERT_EQ(apply_spec(to_spec(s), t), "");
  EXPECT_EQ(to_spec(s), to_spec(t));
  EXPECT_EQ(t.delay_ns, 1500000);
  EXPECT_EQ(t.overhead_bytes, 24u);
  EXPECT_EQ(t.limit_bytes, 90000u);
  EXPECT_FALSE(t.loss_ip_only);
  EXPECT_TRUE(t.jitter_reorders);
}

}  // namespace
}  // namespace linkem
