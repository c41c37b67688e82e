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

// A fresh hold in front of an estimator, driven by a scripted controller.
class OvershootLossesTest : public ::testing::Test {
 protected:
  OvershootLossesTest() { ol_.reset(cc_); }

  // Outcomes for tx [from, to): every `lose_every`-th lost (through the hold), the rest arrived.
  void outcomes(std::uint64_t from, std::uint64_t to, std::uint64_t lose_every) {
    const transport::TimePoint t0{};
    for (std::uint64_t tx = from; tx < to; ++tx) {
      if (tx % lose_every == 0) ol_.on_lost(tx, t0 + std::chrono::microseconds(tx), cc_, est_);
      else est_.on_arrived(tx, t0 + std::chrono::microseconds(tx));
    }
  }
  // The controller ends its round (an overshoot round if `overshoot`) and the sender sees it.
  void end_round(bool overshoot) {
    ++cc_.rounds;
    if (overshoot) ++cc_.overshoots;
    ol_.after_ack(cc_, est_);
  }
  double loss_rate() const { return est_.long_run().loss_rate; }

  ScriptedController cc_;
  coding::LossEstimator est_;
  OvershootLosses ol_;
};

TEST_F(OvershootLossesTest, LossesOutsideAnOvershootWindowReachTheEstimateAtOnce) {
  outcomes(0, 2000, 10);
  EXPECT_NEAR(loss_rate(), 0.1, 1e-9);
  EXPECT_EQ(ol_.excluded(), 0u);
}

TEST_F(OvershootLossesTest, HeldLossesOfAnOrdinaryRoundReachTheEstimateWhenItEnds) {
  cc_.may_overshoot = true;
  outcomes(0, 2000, 10);
  ol_.after_ack(cc_, est_);  // the round goes on: still held
  EXPECT_EQ(loss_rate(), 0.0);
  end_round(false);
  EXPECT_NEAR(loss_rate(), 0.1, 1e-9);
  EXPECT_EQ(ol_.excluded(), 0u);
}

TEST_F(OvershootLossesTest, AnOvershootRoundsLossesNeverReachTheEstimate) {
  cc_.may_overshoot = true;
  outcomes(0, 2000, 10);
  end_round(true);
  EXPECT_EQ(loss_rate(), 0.0);
  EXPECT_EQ(ol_.excluded(), 200u);
  // The next round is an ordinary one: its losses count again.
  cc_.may_overshoot = false;
  outcomes(2000, 4000, 10);
  EXPECT_NEAR(loss_rate(), 200.0 / 3800.0, 1e-9);
}

TEST_F(OvershootLossesTest, AFullHoldPassesLossesOnAndCountsThem) {
  ol_ = OvershootLosses(50);
  ol_.reset(cc_);
  cc_.may_overshoot = true;
  outcomes(0, 1000, 10);  // 100 losses, 50 held
  EXPECT_EQ(ol_.overflow(), 50u);
  end_round(true);
  EXPECT_EQ(ol_.excluded(), 50u);
  EXPECT_NEAR(loss_rate(), 50.0 / 950.0, 1e-9);
}

TEST_F(OvershootLossesTest, ANewSessionStartsFromTheControllersCounters) {
  cc_.rounds = 7;
  cc_.overshoots = 3;
  ol_.reset(cc_);
  cc_.may_overshoot = true;
  outcomes(0, 1000, 10);
  end_round(false);  // an ordinary round ends: the old overshoot count is not news
  EXPECT_EQ(ol_.excluded(), 0u);
  EXPECT_NEAR(loss_rate(), 0.1, 1e-9);
}

}  // namespace
}  // namespace ncgw::tcpnc
