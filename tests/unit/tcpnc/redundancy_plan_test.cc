// RedundancyPlan: the spare-capacity mode (the tighter retransmission target while the input, with
// that target's repairs, leaves room on the path) and its hysteresis; the per-CW bound on
// retransmission rounds at short RTTs.
#include <gtest/gtest.h>

#include <optional>

#include <string_view>
#include <vector>

#include "transports/tcpnc/input_rate.h"
#include "transports/tcpnc/redundancy_plan.h"

namespace ncgw::tcpnc {
namespace {

using namespace std::chrono_literals;

constexpr double kPathRate = 10'000;  // transmissions per second the path drains
const PathEstimate kPath{kPathRate, 60ms};

// Status figure `name` of `plan` at `now` over `path`.
double plan_stat(const RedundancyPlan& plan, TimePoint now, const PathEstimate& path, std::string_view name) {
  std::vector<transport::StatEntry> out;
  plan.stats(out, now, path);
  for (const auto& e : out) if (e.name == name) return e.value;
  ADD_FAILURE() << "no stat " << name;
  return -1;
}

// A plan fed with 5 % periodic loss, adapted every 100 ms at `input` sources per second.
class SparePlan : public ::testing::Test {
 protected:
  SparePlan() : plan_(TcpncCoreSettings{}, 64) { plan_.start(64, now_); }

  // Runs `intervals` adaptation intervals with input at `input` sources per second; returns
  // whether the spare mode held after each one.
  std::vector<bool> run(double input, int intervals) {
    std::vector<bool> spare;
    for (int i = 0; i < intervals; ++i) {
      for (int j = 0; j < 1000; ++j, ++tx_) {  // 1000 outcomes per 100 ms (10,000 per second)
        const TimePoint sent = now_ + std::chrono::microseconds(100 * j);
        if (tx_ % 20 == 0) plan_.estimator().on_lost(tx_, sent);
        else plan_.estimator().on_arrived(tx_, sent);
      }
      now_ += 100ms;
      sources_ += static_cast<std::uint64_t>(input / 10);
      plan_.maybe_adapt(now_, kPath, sources_, sources_);
      spare.push_back(plan_.spare());
    }
    return spare;
  }

  // The plan's status figure `name`.
  double stat(std::string_view name) { return plan_stat(plan_, now_, kPath, name); }

  RedundancyPlan plan_;
  TimePoint now_ = transport::time_from_ns(1'000'000'000);
  std::uint64_t tx_ = 0, sources_ = 0;
};

TEST_F(SparePlan, InputWellBelowThePathGetsTheTighterTarget) {
  const auto spare = run(5'000, 10);  // half the path rate: room for any plausible redundancy
  EXPECT_TRUE(spare.back());
  const double normal = plan_.retransmission_bound(plan_.n(), kPath);
  std::printf("spare: bound %.4f (normal %.4f), k %u for n %u, input %.0f pps\n", stat("retransmission_bound"),
              normal, plan_.k(), plan_.n(), stat("input_rate_pps"));
  EXPECT_DOUBLE_EQ(stat("retransmission_bound"), plan_.spare_bound(plan_.n_max(), kPath));
  EXPECT_LT(stat("retransmission_bound"), normal);
  EXPECT_EQ(stat("spare_plan"), 1.0);
  EXPECT_NEAR(stat("input_rate_pps"), 5'000, 1);
}

TEST_F(SparePlan, InputThatFillsThePathKeepsTheNormalTarget) {
  const auto spare = run(9'000, 10);  // with any repairs at 5 % loss this exceeds the path rate
  for (bool s : spare) EXPECT_FALSE(s);
  EXPECT_DOUBLE_EQ(stat("retransmission_bound"), plan_.retransmission_bound(plan_.n(), kPath));
  EXPECT_EQ(stat("spare_plan"), 0.0);
}

TEST_F(SparePlan, ModeChangesWithHysteresis) {
  ASSERT_TRUE(run(5'000, 10).back());
  const double r = 1.0 + static_cast<double>(plan_.k()) / plan_.n();  // the spare plan's redundancy
  // Each phase runs longer than the input-rate window (InputRateWindow::kIntervals intervals).
  const int phase = static_cast<int>(InputRateWindow::kIntervals) + 2;
  // Between the entry share (0.85 of the path) and the keep share (0.95): stays spare ...
  EXPECT_TRUE(run(0.90 * kPathRate / r, phase).back());
  // ... above the keep share (a source that fills the path under the spare plan): leaves it ...
  EXPECT_FALSE(run(0.98 * kPathRate / r, phase).back());
  // ... and back between the shares, does not return to it.
  EXPECT_FALSE(run(0.90 * kPathRate / r, phase).back());
  EXPECT_TRUE(run(0.80 * kPathRate / r, phase).back());
}

TEST_F(SparePlan, BurstsBetweenPausesAreJudgedByTheirMean) {
  // A window-limited host behind the tunnel: 200 ms of input above the path's rate, then 100 ms
  // of none (a retransmission round holding its ACK clock), over and over: a mean of 63 % of the
  // path. Judged per 100 ms interval the bursts would end the spare plan each time.
  ASSERT_TRUE(run(5'000, 10).back());
  std::vector<bool> spare;
  for (int cycle = 0; cycle < 10; ++cycle) {
    for (bool s : run(9'500, 2)) spare.push_back(s);
    spare.push_back(run(0, 1).back());
  }
  for (bool s : spare) EXPECT_TRUE(s);
  EXPECT_NEAR(stat("input_rate_pps"), 5'700, 1);  // the last second: 6 bursts, 4 pauses
}

TEST_F(SparePlan, OnlyTheNormalPlansRepairsGoBeforeNewSources) {
  // Input that leaves room: the spare plan's repairs are planned, but only as many as the normal
  // plan would take for the CW's size go before new sources; the rest fill idle slots.
  ASSERT_TRUE(run(5'000, 10).back());
  const unsigned n = plan_.n(), spare_k = plan_.k();
  const unsigned urgent = plan_.urgent_repairs_for(n, spare_k);
  const unsigned urgent_half = plan_.urgent_repairs_for(n / 2, spare_k);
  plan_.start(64, now_);  // a new session: the same loss, input that fills the path
  ASSERT_FALSE(run(9'000, 10).back());
  ASSERT_EQ(plan_.n(), n);
  std::printf("n %u: spare k %u, of which urgent %u; normal k %u\n", n, spare_k, urgent, plan_.k());
  EXPECT_LT(urgent, spare_k);
  EXPECT_EQ(urgent, plan_.k());
  EXPECT_EQ(plan_.urgent_repairs_for(n, plan_.k()), plan_.k());  // the normal plan: all urgent
  EXPECT_LE(urgent_half, urgent);                                // shorter CWs: fewer
  EXPECT_GE(urgent_half, 1u);
}

TEST_F(SparePlan, UntilTheControllerFillsThePathThePlanIsSpare) {
  ASSERT_FALSE(run(9'000, 10).back());  // fills the path: normal plan
  PathEstimate startup = kPath;
  startup.filled = false;  // BBR Startup: its rate lags the end hosts' slow start
  sources_ += 900;
  plan_.maybe_adapt(now_ += 100ms, startup, sources_, sources_);
  EXPECT_TRUE(plan_.spare());
  // In Startup every planned repair goes before new sources: the hosts' slow start needs rounds
  // avoided more than it needs the capacity.
  EXPECT_EQ(plan_.urgent_repairs_for(plan_.n(), plan_.k()), plan_.k());
}

// Rounds during adapted_plan, one every `every` intervals: how much of the input keeps coming in
// the two intervals after one starts (1: hosts with window to spare; 0: hosts whose window is used
// up).
struct Rounds {
  double held_input = 1.0;
  int every = 2;
};

// A plan with settings `s` after 30 adaptation intervals of 100 ms over `path`: `per_interval`
// transmissions each, `spacing` apart, lost where lost(tx), and `sources` more sources sent.
template <class Lost>
RedundancyPlan adapted_plan(const TcpncCoreSettings& s, const PathEstimate& path, int per_interval,
                            std::chrono::microseconds spacing, std::uint64_t sources, Lost lost,
                            std::optional<Rounds> rounds = std::nullopt, unsigned max_n = 64) {
  RedundancyPlan plan(s, max_n);
  TimePoint now = transport::time_from_ns(1'000'000'000);
  plan.start(max_n, now);
  std::uint64_t tx = 0, sent_sources = 0;
  for (int i = 0; i < 30; ++i) {
    for (int j = 0; j < per_interval; ++j, ++tx) {
      if (lost(tx)) plan.estimator().on_lost(tx, now + j * spacing);
      else plan.estimator().on_arrived(tx, now + j * spacing);
    }
    now += 100ms;
    const bool held = rounds && i % rounds->every != 0 && i % rounds->every <= 2;  // after a round started
    sent_sources += held ? static_cast<std::uint64_t>(rounds->held_input * static_cast<double>(sources)) : sources;
    plan.maybe_adapt(now, path, sent_sources, sent_sources);
    if (rounds && i % rounds->every == 0) plan.on_round(now, sent_sources, path);
  }
  return plan;
}

TEST(RedundancyPlanSpare, NotWhereItsRepairsCostTooMuch) {
  // 10 Mbit/s (860 datagrams/s), 60 ms RTT: CWs of 12 sources; GE-like loss, bursts of 3 every 60
  // transmissions (5 %). Tightening the per-CW bound to 0.01 there costs more than
  // kSparePriceCap (1.25) times the normal plan's redundancy, so even input far below the path
  // rate (200 sources/s: a quarter of the path) keeps the normal plan.
  const PathEstimate slow{860, 60ms};
  const RedundancyPlan plan = adapted_plan(TcpncCoreSettings{}, slow, 86, 1163us, 20,
                                           [](std::uint64_t tx) { return tx % 60 < 3; });
  std::printf("n %u k %u bound %.4f\n", plan.n(), plan.k(), plan.retransmission_bound(plan.n(), slow));
  EXPECT_FALSE(plan.spare());
}

TEST(RedundancyPlanSpare, InStartupWhateverItsRepairsCost) {
  // The link of NotWhereItsRepairsCostTooMuch while the controller is still in Startup: the
  // hosts are in their own start-up, so the spare plan holds whatever its price, from the first
  // plan on (a round then can end a host's slow start at a fraction of the path).
  PathEstimate startup{860, 60ms};
  startup.filled = false;
  const auto bursts = [](std::uint64_t tx) { return tx % 60 < 3; };
  RedundancyPlan plan = adapted_plan(TcpncCoreSettings{}, startup, 86, 1163us, 20, bursts);
  EXPECT_TRUE(plan.spare());
  const unsigned spare_k = plan.k();
  // Once the path is filled the price cap applies again and the normal plan returns.
  PathEstimate filled = startup;
  filled.filled = true;
  const RedundancyPlan normal = adapted_plan(TcpncCoreSettings{}, filled, 86, 1163us, 20, bursts);
  EXPECT_FALSE(normal.spare());
  std::printf("startup: n %u k %u; filled: n %u k %u\n", plan.n(), spare_k, normal.n(), normal.k());
  EXPECT_GT(spare_k * normal.n(), normal.k() * plan.n());  // more repairs per source in Startup
}

TEST(RedundancyPlanSpare, TheFirstPlanOfAStartingTunnelIsSpare) {
  // The first adaptation with a valid loss estimate, still in Startup, uses the spare plan's bound,
  // not the normal one chosen from a young estimate (which may well be k 0).
  PathEstimate startup{10'000, 60ms};
  startup.filled = false;
  RedundancyPlan plan(TcpncCoreSettings{}, 64);
  TimePoint now = transport::time_from_ns(1'000'000'000);
  plan.start(64, now);
  std::uint64_t tx = 0;
  bool adapted = false;
  for (int i = 0; i < 30 && !adapted; ++i) {  // until the first plan from an estimate
    for (int j = 0; j < 100; ++j, ++tx) {
      if (tx % 20 == 0) plan.estimator().on_lost(tx, now + j * 1ms);
      else plan.estimator().on_arrived(tx, now + j * 1ms);
    }
    now += 100ms;
    adapted = plan.maybe_adapt(now, startup, tx, tx);
  }
  ASSERT_TRUE(adapted);
  EXPECT_TRUE(plan.spare());
  EXPECT_DOUBLE_EQ(plan_stat(plan, now, startup, "retransmission_bound"), plan.spare_bound(plan.n_max(), startup));
}

TEST(RedundancyPlanSpare, AtMostAHundredthOfARoundPerRtt) {
  const RedundancyPlan plan(TcpncCoreSettings{}, 255);
  // 200 Mbit/s, 150 ms RTT: ten CWs of 255 sources per RTT, so 0.001 per CW (the floor; 0.00095
  // without it), not the configured 0.01.
  EXPECT_DOUBLE_EQ(plan.spare_bound(255, PathEstimate{17'900, 150ms}), 0.001);
  // 200 Mbit/s, 60 ms RTT: four CWs per RTT, 0.0024.
  EXPECT_NEAR(plan.spare_bound(255, PathEstimate{17'900, 60ms}), 0.01 / (17'900 * 0.060 / 255), 1e-12);
  // 10 Mbit/s, 10 ms RTT: under one CW of 13 sources per RTT, the configured 0.01 binds.
  EXPECT_DOUBLE_EQ(plan.spare_bound(13, PathEstimate{860, 10ms}), TcpncCoreSettings{}.idle_retransmission_target);
  // With the rule switched off (at or above retransmission_target), off it stays.
  TcpncCoreSettings off;
  off.idle_retransmission_target = off.retransmission_target;
  EXPECT_DOUBLE_EQ(RedundancyPlan(off, 255).spare_bound(255, PathEstimate{17'900, 150ms}), off.retransmission_target);
}

TEST(RedundancyPlanSpare, AtLongRttsTheSparePlanUsesTheTighterBound) {
  // The plan in Startup on that 150 ms path at 1 % loss: the spare plan's bound is the per-RTT one.
  PathEstimate startup{17'900, 150ms};
  startup.filled = false;
  const RedundancyPlan plan = adapted_plan(TcpncCoreSettings{}, startup, 1790, 55us, 500,
                                           [](std::uint64_t tx) { return tx % 100 == 0; });
  EXPECT_TRUE(plan.spare());
  EXPECT_DOUBLE_EQ(plan_stat(plan, transport::time_from_ns(4'000'000'000), startup, "retransmission_bound"), 0.001);
}

TEST(RedundancyPlanSpare, FixedPlansNeverSwitch) {
  TcpncCoreSettings s;
  s.fixed_n = 16;
  s.fixed_k = 2;
  RedundancyPlan plan(s, 64);
  TimePoint now = transport::time_from_ns(1'000'000'000);
  plan.start(64, now);
  for (std::uint64_t tx = 0; tx < 5000; ++tx) {
    if (tx % 20 == 0) plan.estimator().on_lost(tx, now);
    else plan.estimator().on_arrived(tx, now);
  }
  for (int i = 1; i <= 5; ++i) plan.maybe_adapt(now + i * 100ms, kPath, i * 100ull, i * 100ull);
  EXPECT_FALSE(plan.spare());
  EXPECT_EQ(plan.k(), 2u);
}

// The plan chosen at 10 Mbit/s (900 datagrams/s) under 10 % loss (every tenth transmission lost),
// by a plan whose controller is `cc`, with input filling the path and going on through rounds (at
// short RTTs the hosts' queue at the entrance outlasts a round's hold).
RedundancyPlan short_rtt_plan(CcAlgorithm cc, const PathEstimate& path, double cw_rtt_fraction = 0.5) {
  TcpncCoreSettings s;
  s.congestion_control = cc;
  s.cw_rtt_fraction = cw_rtt_fraction;
  return adapted_plan(s, path, 90, 1111us, 85, [](std::uint64_t tx) { return tx % 10 == 0; }, Rounds{1.0});
}

TEST(RedundancyPlanShortRtt, WithBbrALongCwMayNeedARoundAsOftenAsThePerRttAllowanceLets) {
  // The CW's delay budget (15 ms) is longer than the RTT: 0.7 CWs per RTT. Half a round per RTT
  // would allow P(round) 0.75 per CW; BBR's rate does not follow rounds, so the cap is 2 x 0.25,
  // where the loss-based controllers keep 0.25 (each round is a window cut for them).
  const PathEstimate path{900, 10ms};
  const RedundancyPlan bbr = short_rtt_plan(CcAlgorithm::kBbr, path);
  const RedundancyPlan cubic = short_rtt_plan(CcAlgorithm::kCubic, path);
  ASSERT_EQ(bbr.n(), 13u);
  ASSERT_EQ(cubic.n(), 13u);
  EXPECT_DOUBLE_EQ(bbr.retransmission_bound(bbr.n(), path), 0.5);
  EXPECT_DOUBLE_EQ(cubic.retransmission_bound(cubic.n(), path), TcpncCoreSettings{}.retransmission_target);
  std::printf("10 %% loss, 10 ms RTT: bbr n %u k %u, cubic n %u k %u\n", bbr.n(), bbr.k(), cubic.n(), cubic.k());
  EXPECT_LT(bbr.k(), cubic.k());  // fewer repairs: R 1.08 against 1.15
  EXPECT_GE(bbr.k(), 1u);         // P(round) with no repair at 10 % (0.75) exceeds 0.5
}

TEST(RedundancyPlanShortRtt, AtLongerRttsThePerRttAllowanceBindsAsBefore) {
  // 60 ms RTT with CWs of a quarter of it (4 CWs of 13 per RTT): half a round per RTT is 0.12 per
  // CW for every controller. (With the default half an RTT, 2 CWs of 27, it is 0.25: the cap.)
  const PathEstimate path{900, 60ms};
  const RedundancyPlan bbr = short_rtt_plan(CcAlgorithm::kBbr, path, 0.25);
  const RedundancyPlan cubic = short_rtt_plan(CcAlgorithm::kCubic, path, 0.25);
  EXPECT_DOUBLE_EQ(bbr.retransmission_bound(bbr.n(), path), cubic.retransmission_bound(cubic.n(), path));
  EXPECT_LT(bbr.retransmission_bound(bbr.n(), path), 0.25);
  EXPECT_EQ(bbr.k(), cubic.k());
}

// 50 Mbit/s (4,500 datagrams/s), 150 ms RTT, 1 % random loss, input filling the path: CWs of 168
// sources, four per RTT. The normal bound allows P(round) 0.125 per CW, and priced at nothing a
// round is worth 3 or 4 repairs. Hosts that stop sending while a round holds their ACK clock make a
// round cost about a BDP (675 transmissions), which the plan assumes until it has measured one: it
// then buys repairs until one more saves less than 1 / 675 of a round. Hosts that keep sending make
// rounds cost nothing, and the plan is the paper's again.
TEST(RedundancyPlanRoundCost, RoundsThatIdleThePathAreWorthRepairs) {
  const PathEstimate path{4'500, 150ms};
  const auto every_hundredth = [](std::uint64_t tx) { return tx % 100 == 0; };
  const auto plan_with = [&](std::optional<Rounds> rounds, CcAlgorithm cc = CcAlgorithm::kBbr) {
    TcpncCoreSettings s;
    s.congestion_control = cc;
    return adapted_plan(s, path, 450, 222us, 450, every_hundredth, rounds, 255);
  };
  const RedundancyPlan unmeasured = plan_with(std::nullopt), stalled = plan_with(Rounds{0.0, 10});
  const RedundancyPlan sending = plan_with(Rounds{1.0}), loss_based = plan_with(Rounds{1.0}, CcAlgorithm::kNewReno);
  std::printf("round cost %.0f: n %u k %u; stalled hosts (cost %.0f, %llu rounds): k %u; hosts sending on "
              "(cost %.0f): k %u; newreno k %u\n",
              unmeasured.round_cost(path), unmeasured.n(), unmeasured.k(), stalled.round_cost(path),
              static_cast<unsigned long long>(stalled.round_meter().samples()), stalled.k(), sending.round_cost(path),
              sending.k(), loss_based.k());
  EXPECT_NEAR(unmeasured.round_cost(path), 4'500 * 0.15, 1.0);  // assumed: a BDP
  // Measured: the input of an RTT at the rate of the second before the round (which held two
  // stalled intervals of ten).
  EXPECT_GT(stalled.round_cost(path), 0.7 * 4'500 * 0.15);
  EXPECT_LE(stalled.round_cost(path), 4'500 * 0.15);
  EXPECT_GE(stalled.round_meter().samples(), 2u);
  EXPECT_EQ(sending.round_cost(path), 0.0);
  EXPECT_EQ(loss_based.round_cost(path), 0.0);  // paper 002's model: rounds are congestion signals
  EXPECT_EQ(unmeasured.n(), sending.n());
  EXPECT_GE(unmeasured.k(), sending.k() + 2);
  EXPECT_GE(stalled.k(), sending.k() + 2);
  EXPECT_LE(sending.k(), 4u);  // as the loss-based plan's (3; chosen on a slightly older estimate)
  EXPECT_LE(loss_based.k(), 4u);
}

// The CW's delay budget: min RTT x cw_rtt_fraction (default 1/2) at the path rate, or a floor of
// 15 ms that stretches a CW no longer than half the min RTT or 64 sources, whichever is longer; at
// most n_max (255).
TEST(RedundancyPlanCwLength, FollowsTheRttWithAFloorForLowRates) {
  RedundancyPlan plan(TcpncCoreSettings{}, 255);
  plan.start(255, transport::time_from_ns(1'000'000'000));
  EXPECT_EQ(plan.delay_bounded_n_max({17'700, 10ms}), 88u);   // 200 Mbit/s: half the RTT, 5 ms
  EXPECT_EQ(plan.delay_bounded_n_max({8'850, 10ms}), 64u);    // 100 Mbit/s: 64 sources (7.2 ms)
  EXPECT_EQ(plan.delay_bounded_n_max({8'600, 50ms}), 215u);   // RTT / 2, longer than 15 ms
  EXPECT_EQ(plan.delay_bounded_n_max({885, 10ms}), 13u);      // 10 Mbit/s: 15 ms
  EXPECT_EQ(plan.delay_bounded_n_max({4'425, 20ms}), 64u);    // 50 Mbit/s: 64 sources (14.5 ms)
  EXPECT_EQ(plan.delay_bounded_n_max({2'000, 200ms}), 200u);  // RTT / 2
  EXPECT_EQ(plan.delay_bounded_n_max({885, 60ms}), 26u);      // 10 Mbit/s, 60 ms: RTT / 2 (30 ms)
  EXPECT_EQ(plan.delay_bounded_n_max({17'700, 60ms}), 255u);  // 15 ms is 265 sources: n_max
}

}  // namespace
}  // namespace ncgw::tcpnc

namespace ncgw::tcpnc {
namespace {

// After a few early losses the path stays clean: the plan follows the estimate down instead of
// holding the repairs chosen for the early loss rate (an absolute slack of 0.2 pp once held k = 5
// for seconds on a loss-free 200 Mbit/s path).
TEST(RedundancyPlanFollowsTheEstimate, DownToACleanPathsLossRate) {
  RedundancyPlan plan(TcpncCoreSettings{}, 64);
  TimePoint now = transport::time_from_ns(1'000'000'000);
  plan.start(64, now);
  std::uint64_t tx = 0;
  for (int i = 0; i < 50; ++i) {  // 5 s at 10,000 transmissions per second
    for (int j = 0; j < 1000; ++j, ++tx) {
      const TimePoint sent = now + std::chrono::microseconds(100 * j);
      if (tx < 2000 && tx % 200 == 0) plan.estimator().on_lost(tx, sent);  // 10 early losses
      else plan.estimator().on_arrived(tx, sent);
    }
    now += 100ms;
    plan.maybe_adapt(now, kPath, tx, tx);
    if (i == 2) {
      EXPECT_GT(plan.loss_rate(), 0.003) << "the early losses should have counted";
    }
  }
  // The estimate (prior included) is then about 1e-4: one repair per 64 sources. The 0.2 pp slack
  // stopped at 2.5e-4 and k = 2 here.
  EXPECT_LT(plan.loss_rate(), 0.0002);
  EXPECT_LE(plan.k(), 1u);
}

}  // namespace
}  // namespace ncgw::tcpnc
