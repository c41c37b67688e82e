// A loss sweep over several seeds for docs/results/tcpnc-sim.md (disabled in ctest: run with
//   build/tests/sim/tcpnc/tcpnc_sim_test --gtest_also_run_disabled_tests --gtest_filter='*Sweep*'
// ). Prints one markdown table row per (loss model, rate): goodput ratio to (1 - e) x loss-free
// goodput (min and mean over seeds), estimator error, chosen (n, k), measured extra redundancy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "tests/sim/tcpnc/harness.h"

namespace ncgw::tcpnc::simtest {
namespace {

// NCGW_SWEEP_DEFAULTS=1 sweeps with the configuration defaults (n_max 32, k_max 16) instead of
// the sim-test settings (n_max 64, k_max 24).
void apply_sweep_settings(Scenario& sc) {
  if (std::getenv("NCGW_SWEEP_DEFAULTS") == nullptr) return;
  sc.settings.n_max = 32;
  sc.settings.k_max = 16;
}

TEST(TcpncSweep, DISABLED_LossSweep) {
  constexpr int kSeeds = 8;
  Scenario clean;
  apply_sweep_settings(clean);
  double reference = 0;
  for (int s = 0; s < kSeeds; ++s) reference += run_bulk(*build(clean, 100 + s), 3s, 20s).goodput_bps / kSeeds;
  std::printf("loss-free goodput (mean of %d seeds): %.3f Mbit/s\n\n", kSeeds, reference / 1e6);
  std::printf("| model | e | burst | ratio min | ratio mean | goodput mean Mbit/s | est. error max (pp) | n,k (last seed) | extra redundancy | retx | cong. events |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (double burst : {1.0, 3.0})
    for (double e : {0.01, 0.02, 0.05, 0.10, 0.15, 0.20}) {
      double rmin = 1e9, rsum = 0, gsum = 0, err_max = 0, extra = 0, retx = 0, cong = 0;
      std::string nk;
      for (int s = 0; s < kSeeds; ++s) {
        Scenario sc;
        apply_sweep_settings(sc);
        sc.data_loss = [e, burst](Simulation& sim, sim::Link& l) {
          if (burst <= 1) l.add<sim::BernoulliLoss>(e, sim.seed_for(21));
          else l.add_element(sim::GilbertElliottLoss::from_rate_and_burst(e, burst, sim.seed_for(21)));
        };
        auto sim = build(sc, 1000 + s);
        const BulkResult r = run_bulk(*sim, 3s, 20s);
        EXPECT_EQ(r.errors, 0u) << r.first_error;
        const auto& a = *sim->ep(Side::a).core;
        const auto& el = *sim->link_from(Side::a).elements().back();
        const double link_loss = static_cast<double>(el.dropped()) / static_cast<double>(el.seen());
        const double ratio = r.goodput_bps / ((1 - e) * reference);
        rmin = std::min(rmin, ratio);
        rsum += ratio;
        gsum += r.goodput_bps;
        err_max = std::max(err_max, std::abs(stat(a, "loss_rate_long") - link_loss));
        extra += (stat(a, "combinations_sent") / stat(a, "sources_sent") - 1) / kSeeds;
        retx += stat(a, "retransmissions") / kSeeds;
        cong += stat(a, "congestion_events") / kSeeds;
        nk = std::to_string(static_cast<int>(stat(a, "n"))) + "," + std::to_string(static_cast<int>(stat(a, "k")));
      }
      std::printf("| %s | %.2f | %.0f | %.3f | %.3f | %.3f | %.2f | %s | %.3f | %.0f | %.0f |\n",
                  burst > 1 ? "Gilbert-Elliott" : "Bernoulli", e, burst, rmin, rsum / kSeeds, gsum / kSeeds / 1e6,
                  err_max * 100, nk.c_str(), extra, retx, cong);
    }
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
