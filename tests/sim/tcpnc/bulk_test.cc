// Bulk transfer over a 10 Mbit/s, 20 ms RTT path with random and bursty loss on the data
// direction: exactly-once in-order delivery, goodput against the erasure-channel bound, loss
// estimator accuracy, redundancy on a clean link (what the tests must show).
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/sim/tcpnc/harness.h"

namespace ncgw::tcpnc::simtest {
namespace {

constexpr auto kWarmup = 3s;
constexpr auto kMeasure = 20s;

// Loss model of one case.
struct LossCase {
  const char* name;
  double e;        // long-run loss rate
  double burst;    // mean burst length (1: Bernoulli)
  double bound;    // required goodput / ((1 - e) x loss-free goodput)
  std::uint64_t seed;
};

// Loss-free goodput of the same path and settings (measured once, same run lengths).
double loss_free_goodput() {
  static const double g = [] {
    Scenario sc;
    auto sim = build(sc, 999);
    return run_bulk(*sim, kWarmup, kMeasure).goodput_bps;
  }();
  return g;
}

// Adds the case's loss element to the data link.
Scenario scenario_for(const LossCase& c) {
  Scenario sc;
  if (c.e <= 0) return sc;
  const double e = c.e, burst = c.burst;
  sc.data_loss = [e, burst](Simulation& sim, sim::Link& l) {
    if (burst <= 1.0) l.add<sim::BernoulliLoss>(e, sim.seed_for(21));
    else l.add_element(sim::GilbertElliottLoss::from_rate_and_burst(e, burst, sim.seed_for(21)));
  };
  return sc;
}

class TcpncBulkLoss : public ::testing::TestWithParam<LossCase> {};

TEST_P(TcpncBulkLoss, DeliversExactlyOnceNearErasureBound) {
  const LossCase c = GetParam();
  const double reference = loss_free_goodput();
  auto sim = build(scenario_for(c), c.seed);
  const BulkResult r = run_bulk(*sim, kWarmup, kMeasure);
  const auto& a = *sim->ep(Side::a).core;
  const double link_loss = sim->link_from(Side::a).entered() == 0 ? 0.0
      : static_cast<double>(sim->link_from(Side::a).elements().back()->dropped()) /
        static_cast<double>(sim->link_from(Side::a).elements().back()->seen());
  const double ratio = r.goodput_bps / ((1.0 - c.e) * reference);
  const double sources = stat(a, "sources_sent"), combos = stat(a, "combinations_sent");
  std::printf("[tcpnc-bulk] case=%s seed=%llu goodput=%.3f Mbit/s loss_free=%.3f ratio_to_(1-e)x=%.3f (bound %.2f) "
              "link_loss=%.4f est_long=%.4f est_burst=%.2f n=%g k=%g extra_redundancy=%.3f retx=%g "
              "congestion_events=%g rto=%g delivered=%llu\n",
              c.name, (unsigned long long)c.seed, r.goodput_bps / 1e6, reference / 1e6, ratio, c.bound, link_loss,
              stat(a, "loss_rate_long"), stat(a, "mean_burst_long"), stat(a, "n"), stat(a, "k"),
              combos / sources - 1.0, stat(a, "retransmissions"), stat(a, "congestion_events"), stat(a, "rto_count"),
              (unsigned long long)r.delivered);
  EXPECT_EQ(r.errors, 0u) << r.first_error;
  EXPECT_GT(r.delivered, 10000u);
  // Paper 002 section 2.2: with the bottleneck queue sized R_max x CWND_max and cwnd capped at
  // CWND_max, congestion drops happen only at the tunnel entrance, never inside the coded flow.
  EXPECT_EQ(sim->link_from(Side::a).elements().front()->dropped(), 0u);
  EXPECT_GT(stat(a, "entrance_drops"), 0.0);
  EXPECT_GE(ratio, c.bound);
  if (c.e > 0) {
    EXPECT_NEAR(stat(a, "loss_rate_long"), link_loss, 0.01);
  }
  if (c.e == 0) {
    // A clean link never signals congestion: cwnd grows to CWND_max and stays there.
    EXPECT_EQ(stat(a, "cwnd"), 64.0);
    EXPECT_EQ(stat(a, "congestion_events"), 0.0);
    EXPECT_LE(combos / sources - 1.0, 0.05);
    EXPECT_LE(stat(a, "R"), 1.05);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Loss, TcpncBulkLoss,
    ::testing::Values(LossCase{"clean", 0.0, 1, 0.95, 4001}, LossCase{"bernoulli_1pct", 0.01, 1, 0.8, 4002},
                      LossCase{"bernoulli_5pct", 0.05, 1, 0.8, 4003}, LossCase{"bernoulli_10pct", 0.10, 1, 0.8, 4004},
                      LossCase{"bernoulli_20pct", 0.20, 1, 0.8, 4005}, LossCase{"ge_5pct_burst3", 0.05, 3, 0.8, 4006}),
    [](const ::testing::TestParamInfo<LossCase>& i) { return std::string(i.param.name); });

}  // namespace
}  // namespace ncgw::tcpnc::simtest
