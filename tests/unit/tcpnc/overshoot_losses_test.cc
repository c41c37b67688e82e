// OvershootLosses: losses held while the controller's round may be an overshoot round are fed to
// the estimator when the round ends, or dropped if the controller counted it as an overshoot.
#include "transports/tcpnc/overshoot_losses.h"

#include <gtest/gtest.h>

namespace ncgw::tcpnc {
namespace {

using namespace std::chrono_literals;

// A controller whose round counters and overshoot flag the test sets.
class ScriptedController : public transport::CongestionController {
 public:
  std::uint64_t rounds = 0, overshoots = 0;
  bool may_overshoot = false;
  void on_packet_acked(transport::TimePoint, transport::TimePoint, transport::Duration) override {}
  void on_ack(const transport::AckEvent&) override {}
  void on_sent(transport::TimePoint, std::uint32_t) override {}
  void on_cw_failure(transport::TimePoint, transport::TimePoint) override {}
  void on_rto(transport::TimePoint) override {}
  void reset() override {}
  double cwnd() const override { return 10; }
  double pacing_rate() const override { return 0; }
  double path_rate() const override { return 0; }
  transport::Duration min_rtt() const override { return {}; }
  std::uint64_t round_count() const override { return rounds; }
  std::uint64_t overshoot_rounds() const override { return overshoots; }
  bool round_may_overshoot() const override { return may_overshoot; }
  std::uint64_t events() const override { return 0; }
  void stats(std::vector<transport::StatEntry>&) const override {}
};

// Feeds arrivals for tx [from, to) except those in `lost`, losses for those, through `ol`.
void outcomes(OvershootLosses& ol, ScriptedController& cc, coding::LossEstimator& est, std::uint64_t from,
              std::uint64_t to, std::uint64_t lose_every) {
  const transport::TimePoint t0{};
  for (std::uint64_t tx = from; tx < to; ++tx) {
    if (tx % lose_every == 0) ol.on_lost(tx, t0 + std::chrono::microseconds(tx), cc, est);
    else est.on_arrived(tx, t0 + std::chrono::microseconds(tx));
  }
}

TEST(OvershootLosses, LossesOutsideAnOvershootWindowReachTheEstimateAtOnce) {
  ScriptedController cc;
  coding::LossEstimator est;
  OvershootLosses ol;
  ol.reset(cc);
  outcomes(ol, cc, est, 0, 2000, 10);
  EXPECT_NEAR(est.long_run().loss_rate, 0.1, 1e-9);
  EXPECT_EQ(ol.excluded(), 0u);
}

TEST(OvershootLosses, HeldLossesOfAnOrdinaryRoundReachTheEstimateWhenItEnds) {
  ScriptedController cc;
  coding::LossEstimator est;
  OvershootLosses ol;
  ol.reset(cc);
  cc.may_overshoot = true;
  outcomes(ol, cc, est, 0, 2000, 10);
  ol.after_ack(cc, est);  // the round goes on: still held
  EXPECT_EQ(est.long_run().loss_rate, 0.0);
  ++cc.rounds;
  ol.after_ack(cc, est);
  EXPECT_NEAR(est.long_run().loss_rate, 0.1, 1e-9);
  EXPECT_EQ(ol.excluded(), 0u);
}

TEST(OvershootLosses, AnOvershootRoundsLossesNeverReachTheEstimate) {
  ScriptedController cc;
  coding::LossEstimator est;
  OvershootLosses ol;
  ol.reset(cc);
  cc.may_overshoot = true;
  outcomes(ol, cc, est, 0, 2000, 10);
  ++cc.rounds;
  ++cc.overshoots;
  ol.after_ack(cc, est);
  EXPECT_EQ(est.long_run().loss_rate, 0.0);
  EXPECT_EQ(ol.excluded(), 200u);
  // The next round is an ordinary one: its losses count again.
  cc.may_overshoot = false;
  outcomes(ol, cc, est, 2000, 4000, 10);
  EXPECT_NEAR(est.long_run().loss_rate, 200.0 / 3800.0, 1e-9);
}

TEST(OvershootLosses, AFullHoldPassesLossesOnAndCountsThem) {
  ScriptedController cc;
  coding::LossEstimator est;
  OvershootLosses ol(50);
  ol.reset(cc);
  cc.may_overshoot = true;
  outcomes(ol, cc, est, 0, 1000, 10);  // 100 losses, 50 held
  EXPECT_EQ(ol.overflow(), 50u);
  ++cc.rounds;
  ++cc.overshoots;
  ol.after_ack(cc, est);
  EXPECT_EQ(ol.excluded(), 50u);
  EXPECT_NEAR(est.long_run().loss_rate, 50.0 / 950.0, 1e-9);
}

TEST(OvershootLosses, ANewSessionStartsFromTheControllersCounters) {
  ScriptedController cc;
  coding::LossEstimator est;
  OvershootLosses ol;
  cc.rounds = 7;
  cc.overshoots = 3;
  ol.reset(cc);
  cc.may_overshoot = true;
  outcomes(ol, cc, est, 0, 1000, 10);
  ++cc.rounds;  // an ordinary round ends: the old overshoot count is not news
  ol.after_ack(cc, est);
  EXPECT_EQ(ol.excluded(), 0u);
  EXPECT_NEAR(est.long_run().loss_rate, 0.1, 1e-9);
}

}  // namespace
}  // namespace ncgw::tcpnc
