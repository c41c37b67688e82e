// Probe (not built; to reproduce, copy into tests/sim/tcpnc/, add it to that directory's
// CMakeLists.txt SOURCES and run `tcpnc_sim_test --gtest_filter='RtProbe*'`): the default TCP/NC
// cores on 200 Mbit/s, 30 ms each way, 5 % loss (random, or GE with mean burst 3) after a
// 1000-packet bottleneck, for retransmission_target 0.25 (default), 0.05, 0.01, 0.002: a
// window-limited source (500 packets beyond what the far sink has, about 0.87 of the one-way BDP:
// an end host whose window, not the tunnel, limits it) with `run(rt, e, b, 500)`, and a
// saturating source with `run(rt, e, b, 0)` (as written). Prints goodput after a 3 s warm-up over
// 10 s, delivery delay (offer to delivery, one way 30 ms), CW failures, repairs.
// `RtProbe.Seeds` (docs/results/tcpnc-grid.md, "Spare plan"; ../spare-plan/probe.sh runs it and
// averages): the default settings, both sources, four loss models (5 % random, GE 5 % burst 3,
// 1 % random, GE 15 % burst 3), seeds 9501-9504; build tcpnc_sim_test at each commit to compare.
// Environment: PROBE_IDLE sets idle_retransmission_target, PROBE_RATE the bottleneck rate in bit/s
// (queue scaled from 1000 packets at 200 Mbit/s, at least 20), PROBE_WINDOW the window-limited
// source's window (500).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "tests/sim/tcpnc/harness.h"

namespace ncgw::tcpnc::simtest {
namespace {

void run(double rt, double e, double burst, std::uint64_t window, std::uint64_t seed = 9501) {
  Simulation sim(seed);
  TcpncCoreSettings s;
  s.retransmission_target = rt;
  if (const char* v = std::getenv("PROBE_IDLE")) s.idle_retransmission_target = std::atof(v);
  for (Side side : {Side::a, Side::b}) {
    sim.set_core(side, std::make_unique<TcpncCore>(s, sim.seed_for(side == Side::a ? 11 : 12)));
    sim::Link& l = sim.link_from(side);
    const double rate = std::getenv("PROBE_RATE") ? std::atof(std::getenv("PROBE_RATE")) : 200e6;
    l.add<sim::Bottleneck>(rate, 28, std::max<std::size_t>(20, static_cast<std::size_t>(1000 * rate / 200e6)));
    if (side == Side::a) {
      if (burst <= 1) l.add<sim::BernoulliLoss>(e, sim.seed_for(21));
      else l.add_element(sim::GilbertElliottLoss::from_rate_and_burst(e, burst, sim.seed_for(21)));
    }
    l.add<sim::Delay>(30ms);
  }
  sim::Sink& sink = sim.ep(Side::b).sink;
  sink.set_allow_gaps(true);
  if (window > 0)
    sim.set_source(Side::a, std::make_unique<sim::WindowSource>(1300, 1, window, [&sink] { return sink.expected(); }));
  else
    sim.set_source(Side::a, std::make_unique<sim::BulkSource>(1300, 1));
  const BulkResult r = run_bulk(sim, 3s, 10s);
  const auto& a = *sim.ep(Side::a).core;
  std::printf("seed=%llu rt=%.2f e=%.2f b=%.0f window=%llu goodput=%.1f Mbit/s delay mean %.1f p99 %.1f ms cw_fail %g repairs %g sources %g bound %g\n",
              (unsigned long long)seed, rt, e, burst, (unsigned long long)window, r.goodput_bps / 1e6, r.mean_delay_ms, r.p99_delay_ms,
              stat(a, "cw_failures"), stat(a, "repairs_sent"), stat(a, "sources_sent"), stat(a, "retransmission_bound"));
}

TEST(RtProbe, Compare) {  // window 0: saturating source; 500: window-limited
  for (double rt : {0.25, 0.05, 0.01, 0.002})
    for (auto [e, b] : {std::pair{0.05, 1.0}, std::pair{0.05, 3.0}}) run(rt, e, b, 0);
}

TEST(RtProbe, Seeds) {  // the default target, window-limited (500) and saturating (0) sources
  const char* window = std::getenv("PROBE_WINDOW");
  for (std::uint64_t w : {window ? std::strtoull(window, nullptr, 10) : 500ull, 0ull})
    for (auto [e, b] : {std::pair{0.05, 1.0}, std::pair{0.05, 3.0}, std::pair{0.01, 1.0}, std::pair{0.15, 3.0}})
      for (std::uint64_t seed : {9501ull, 9502ull, 9503ull, 9504ull}) run(0.25, e, b, w, seed);
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
