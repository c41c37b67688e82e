// The first round trips of a flow on a fresh tunnel over a lossy path: an end host in slow start
// (window 10, doubling per round trip) behind the tunnel's defaults. Before the loss estimator has
// seen a few hundred outcomes its fit says little, and the repairs chosen for it left a coding
// window needing a retransmission round in most runs on a bursty channel: a hold of the host's ACKs
// for a round trip, which Linux's HyStart reads as a full path (at 150 ms RTT the hosts' slow start
// then ended at 70-110 packets in the grid's runs). The chooser now starts from a prior channel
// (coding/loss_prior.h) that the evidence wears down.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/sim/tcpnc/harness.h"

namespace ncgw::tcpnc::simtest {
namespace {

constexpr double kRate = 50e6;
constexpr auto kOneWay = 50ms;
constexpr std::size_t kPacket = 1400;
constexpr std::size_t kBottleneckQueue = 450;  // about one BDP of datagrams
constexpr int kRuns = 12;

struct FirstRounds {
  double failures = 0;  // CWs that needed a coded retransmission round
  double sources = 0;
  double repairs = 0;
};

// One fresh tunnel with settings `s`, Gilbert-Elliott loss `e` (mean burst 3) on the data
// direction, and a host whose window doubles per round trip from 10 to 640.
FirstRounds first_rounds(const TcpncCoreSettings& s, double e, std::uint64_t seed) {
  Simulation sim(seed);
  for (Side side : {Side::a, Side::b}) {
    sim.set_core(side, std::make_unique<TcpncCore>(s, sim.seed_for(side == Side::a ? 11 : 12)));
    sim::Link& l = sim.link_from(side);
    l.add<sim::Bottleneck>(kRate, 28, kBottleneckQueue);
    if (side == Side::a) l.add<sim::GilbertElliottLoss>(sim::GilbertElliottLoss::from_rate_and_burst(e, 3, sim.seed_for(21)));
    l.add<sim::Delay>(kOneWay);
  }
  sim::Sink& sink = sim.ep(Side::b).sink;
  auto source = std::make_unique<sim::WindowSource>(kPacket, 1, 10, [&sink] { return sink.expected(); });
  sim::WindowSource& host = *source;
  sim.set_source(Side::a, std::move(source));
  for (std::uint64_t w = 20; w <= 640; w *= 2) {
    sim.run_for(2 * kOneWay);
    host.set_window(w);
  }
  sim.run_for(2 * kOneWay);
  const auto& a = *sim.ep(Side::a).core;
  EXPECT_EQ(sink.errors(), 0u) << sink.first_error();
  return {stat(a, "cw_failures"), stat(a, "sources_sent"), stat(a, "repairs_sent")};
}

// Sums over kRuns seeds, for the defaults and for the defaults without the prior.
void compare(double e, FirstRounds& with, FirstRounds& without) {
  TcpncCoreSettings no_prior;
  no_prior.loss_prior_transmissions = 0;
  for (int i = 0; i < kRuns; ++i) {
    const std::uint64_t seed = 9500 + static_cast<std::uint64_t>(i);
    const FirstRounds a = first_rounds(TcpncCoreSettings{}, e, seed), b = first_rounds(no_prior, e, seed);
    with.failures += a.failures, with.sources += a.sources, with.repairs += a.repairs;
    without.failures += b.failures, without.sources += b.sources, without.repairs += b.repairs;
  }
  std::printf("[tcpnc-first-rounds] 50 Mbit/s, 100 ms RTT, GE %.0f %% burst 3, host window 10 -> 640, %d runs: "
              "CW failures %.0f without the prior, %.0f with it; sources %.0f / %.0f; repairs per source "
              "%.3f / %.3f\n",
              100 * e, kRuns, without.failures, with.failures, without.sources, with.sources,
              without.repairs / without.sources, with.repairs / with.sources);
}

TEST(TcpncFirstRounds, APriorChannelSparesTheFirstRoundTripsOfAFlowTheirRounds) {
  FirstRounds with, without;
  compare(0.05, with, without);
  EXPECT_GE(without.failures, 2 * kRuns / 3) << "the case should need the prior";
  EXPECT_LE(with.failures, without.failures / 4);
  // The host's window, not the repairs, limits what it sends: as many sources either way.
  EXPECT_GT(with.sources, 0.95 * without.sources);
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
