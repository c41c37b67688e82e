// Paper 000's MSS rule (eq. 15) against the paper's own numbers and hand-computed cases.
#include <gtest/gtest.h>

#include <cmath>

#include "transports/udt/mss_rule.h"

namespace ncgw::udt {
namespace {

TEST(MssRule, ThePapersExampleGivesMoreThanTheMtuSoTheMtuIsUsed) {
  // Section 5.1.1: H = 52 bytes, RTT = 0.01 s (t_p + t_pr = 5 ms), R = 2 MB/s, P_b = 6.915e-6:
  // n = sqrt((2 x 416 + 2 x 0.005 x 16e6) / 6.915e-6) bits = 152 511 bits = 19 064 bytes, more
  // than 1500, so the paper settles on 1500.
  const MssRuleInputs in{52, 0.005, 2e6, 6.915e-6};
  EXPECT_NEAR(optimal_frame_bytes(in), 19064, 1);
  EXPECT_EQ(suitable_mss(in, 1500, 76), 1500u);
}

TEST(MssRule, ShortFramesOnANoisySlowShortPath) {
  // H = 52 bytes, 0.5 ms one way, 125 kB/s (1 Mbit/s), P_b = 1e-3:
  // sqrt((832 + 1000) / 1e-3) = 1353.5 bits = 169 bytes, below the MTU.
  const MssRuleInputs in{52, 0.0005, 125e3, 1e-3};
  EXPECT_NEAR(optimal_frame_bytes(in), 169.2, 0.1);
  EXPECT_EQ(suitable_mss(in, 1500, 76), 169u);
  EXPECT_EQ(suitable_mss(in, 1500, 400), 400u);  // never below the floor
}

TEST(MssRule, GrowsWithRttAndShrinksWithTheErrorRate) {
  const MssRuleInputs base{52, 0.005, 1e6, 1e-5};
  MssRuleInputs longer = base, noisier = base;
  longer.one_way_s = 0.05;
  noisier.bit_error_rate = 1e-4;
  EXPECT_GT(optimal_frame_bytes(longer), optimal_frame_bytes(base));
  EXPECT_LT(optimal_frame_bytes(noisier), optimal_frame_bytes(base));
  EXPECT_TRUE(std::isinf(optimal_frame_bytes({52, 0.005, 1e6, 0})));
}

TEST(MssRule, BitErrorRateFromPacketLoss) {
  // 1 - (1 - P_b)^(8 x 1500) = 1%: P_b = 8.375e-7.
  const double pb = bit_error_rate(0.01, 1500);
  EXPECT_NEAR(pb, 8.375e-7, 1e-9);
  EXPECT_NEAR(1 - std::pow(1 - pb, 8 * 1500), 0.01, 1e-12);
  EXPECT_EQ(bit_error_rate(0, 1500), 0);
}

}  // namespace
}  // namespace ncgw::udt
