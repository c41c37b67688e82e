// Redundancy rises promptly when loss steps up (the mirror of RedundancyFallsWhenLossStops in
// patterns_test.cc): 1% Bernoulli loss for 8 s, then 10%; k and R must rise within stated bounds
// of virtual time and transmissions after the step, with delivery exactly once and in order.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

#include "tests/sim/tcpnc/harness.h"

namespace ncgw::tcpnc::simtest {
namespace {

constexpr auto kStepAt = 8s;
// Stated bounds (virtual time and transmissions after the step). The chooser runs every
// adapt_interval_ms (100) on the short-window estimate (<= 500 transmissions within 2 s), and
// losses are known one RTT (plus loss-detection delay) after they happen.
constexpr auto kFirstRiseWithin = 300ms;      // k above its 1% value
constexpr double kFirstRiseTx = 300;          // ... within this many transmissions
constexpr auto kHighWithin = 1000ms;          // R >= kHighR (10% steady state: R about 1.2)
constexpr double kHighR = 1.15;

TEST(TcpncAdapt, RedundancyRisesWhenLossStepsUp) {
  const std::uint64_t seed = 6201;
  Scenario sc;
  sc.data_loss = [](Simulation& sim, sim::Link& l) {
    auto rng = std::make_shared<transport::Rng>(sim.seed_for(62));
    l.add<sim::DropIf>([rng](std::span<const std::uint8_t>, std::uint64_t, TimePoint at) {
      const bool after = at >= transport::time_from_ns(std::chrono::nanoseconds(kStepAt).count());
      return rng->bernoulli(after ? 0.10 : 0.01);
    });
  };
  auto sim = build(sc, seed);
  sim->run_for(kStepAt);
  const auto& a = *sim->ep(Side::a).core;
  const double k0 = stat(a, "k"), r0 = stat(a, "R"), n0 = stat(a, "n"), tx0 = stat(a, "combinations_sent");
  const std::uint64_t delivered0 = sim->ep(Side::b).sink.packets();
  transport::Duration rise{-1}, high{-1};
  double rise_tx = -1, high_tx = -1;
  for (transport::Duration t{}; t < 2s; t += 5ms) {
    sim->run_for(5ms);
    const double tx = stat(a, "combinations_sent") - tx0;
    if (rise.count() < 0 && stat(a, "k") > k0) { rise = t + 5ms; rise_tx = tx; }
    if (high.count() < 0 && stat(a, "R") >= kHighR) { high = t + 5ms; high_tx = tx; }
  }
  using ms = std::chrono::duration<double, std::milli>;
  std::printf("[tcpnc-step-up] seed=%llu before: n=%g k=%g R=%.3f; k rose after %.0f ms / %.0f tx; R >= %.2f after "
              "%.0f ms / %.0f tx; 2 s after: n=%g k=%g R=%.3f est_short=%.4f\n",
              (unsigned long long)seed, n0, k0, r0, ms(rise).count(), rise_tx, kHighR, ms(high).count(), high_tx,
              stat(a, "n"), stat(a, "k"), stat(a, "R"), stat(a, "loss_rate_short"));
  ASSERT_GE(rise.count(), 0) << "k never rose";
  EXPECT_LE(rise, kFirstRiseWithin);
  EXPECT_LE(rise_tx, kFirstRiseTx);
  ASSERT_GE(high.count(), 0) << "R never reached " << kHighR;
  EXPECT_LE(high, kHighWithin);
  EXPECT_GE(stat(a, "R"), kHighR);
  EXPECT_GT(sim->ep(Side::b).sink.packets(), delivered0 + 1000);
  EXPECT_EQ(sim->ep(Side::b).sink.errors(), 0u) << sim->ep(Side::b).sink.first_error();
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
