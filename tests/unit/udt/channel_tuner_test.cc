// Paper 001's OPCN against its Table III, and the ACT tuner driven by scripted RTT series, each
// step checked against a hand trace of Pseudocode 1 (alpha = 5 ms at RTTmin 50 ms, beta = 5,
// thre = 2).
#include <gtest/gtest.h>

#include <vector>

#include "transports/udt/channel_tuner.h"

namespace ncgw::udt {
namespace {

TEST(Opcn, MatchesThePapersTableThree) {
  // Table III rounds the equation; at 100 ms it prints 13 where the equation gives 13.60 (14 here):
  // the only entry that neither rounding nor truncation of the equation reproduces together with
  // the others (200 ms: 14.99 -> 15).
  const std::vector<std::pair<double, unsigned>> table{{1.5, 5},   {50, 12},  {100, 14}, {150, 14}, {200, 15},
                                                       {250, 15}, {300, 16}, {350, 16}, {400, 16}};
  for (const auto& [rtt, channels] : table) EXPECT_EQ(opcn_channels(rtt, 1, 64), channels) << rtt << " ms";
  EXPECT_EQ(opcn_channels(0.1, 1, 64), 0 + 1u);  // 2.0038 ln 0.1 + 4.37 = -0.24: at least the minimum
  EXPECT_EQ(opcn_channels(400, 1, 8), 8u);
}

// Feeds the series and returns the count after each report.
std::vector<unsigned> run(ActTuner& t, const std::vector<double>& rtts) {
  std::vector<unsigned> out;
  for (double r : rtts) out.push_back(t.on_rtt(r));
  return out;
}

TEST(ActTuner, FirstReportAndNewMinimaTakeOpcnDirectly) {
  ActTuner t;
  EXPECT_EQ(t.on_rtt(50), 12u);   // step 1: RTTmin = 50, CHN = OPCN(50)
  EXPECT_EQ(t.rtt_min(), 50);
  EXPECT_EQ(t.on_rtt(40), 12u);   // a new minimum: OPCN(40) = 11.77 -> 12
  EXPECT_EQ(t.rtt_min(), 40);
  EXPECT_EQ(t.on_rtt(1.5), 5u);   // OPCN(1.5) = 5
  EXPECT_EQ(t.base(), 5u);
}

TEST(ActTuner, TemporaryCongestionMovesTheCountWithinTheBand) {
  ActTuner t;
  t.on_rtt(50);  // base 12, band [10, 14]
  // Large changes (|diff| >= alpha = 5 ms): confix stays 0, one step per report:
  // rising RTT -> fewer channels (down to 10), falling RTT -> more (up to 14).
  EXPECT_EQ(run(t, {80, 120, 160, 110, 90, 70, 60}), (std::vector<unsigned>{11, 10, 10, 11, 12, 13, 14}));
  EXPECT_EQ(t.confix(), 0u);
  EXPECT_EQ(t.on_rtt(52), 14u);  // falling again: already at base + thre
  EXPECT_EQ(t.base(), 12u);
}

TEST(ActTuner, LastingCongestionReExtractsTheMinimumAfterBetaReports) {
  ActTuner t;
  t.on_rtt(50);                 // base 12
  t.on_rtt(150);                // large rise: 11
  // Small changes (< 5 ms) around 150: confix counts 1..5 with one step each (rise: fewer,
  // fall: more), then the sixth (> beta) takes RTTmin from the last 8 RTTs, 50 still among them...
  EXPECT_EQ(run(t, {151, 150, 152, 153, 154}), (std::vector<unsigned>{10, 11, 10, 10, 10}));
  EXPECT_EQ(t.confix(), 5u);
  EXPECT_EQ(t.on_rtt(153), 12u);  // RTTmin = min(50, 150, ...) = 50: OPCN(50) again, confix 0
  EXPECT_EQ(t.confix(), 0u);
  // ... and after beta + 1 more, 50 and 150 have left the last 8 RTTs: the lasting ~151 ms is the
  // minimum now (a longer path, not congestion): OPCN(151) = 14.43 -> 14.
  EXPECT_EQ(run(t, {152, 151, 152, 151, 152}), (std::vector<unsigned>{13, 14, 13, 14, 13}));  // from 153: falls, rises, ...
  EXPECT_EQ(t.rtt_min(), 50);
  EXPECT_EQ(t.on_rtt(151), 14u);
  EXPECT_EQ(t.rtt_min(), 151);
  EXPECT_EQ(t.base(), 14u);
}

TEST(ActTuner, StaysWithinTheConfiguredLimits) {
  ActTunerSettings s;
  s.max_channels = 4;
  s.min_channels = 2;
  ActTuner t(s);
  EXPECT_EQ(t.on_rtt(400), 4u);
  for (double r : {300.0, 200.0, 100.0}) EXPECT_LE(t.on_rtt(r), 4u);
  for (double r : {500.0, 700.0, 900.0, 1200.0}) EXPECT_GE(t.on_rtt(r), 2u);
}

}  // namespace
}  // namespace ncgw::udt
