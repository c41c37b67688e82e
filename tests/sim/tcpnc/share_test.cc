// The default controller among other traffic, in virtual time on 100 Mbit/s, 50 ms RTT with a
// one-BDP drop-tail queue: it yields to a step of cross traffic and takes the bandwidth back after;
// two tunnels through one bottleneck share it fairly (with and without link loss); against a
// loss-based (CUBIC, no coding) flow its share is reported.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/sim/tcpnc/harness.h"
#include "tests/sim/tcpnc/mux_core.h"

namespace ncgw::tcpnc::simtest {
namespace {

constexpr double kRate = 100e6;
constexpr auto kOneWay = 25ms;
constexpr std::size_t kPacket = 1400;
constexpr std::size_t kQueue = 420;  // one BDP of full-size datagrams

// Jain's fairness index of two rates.
double jain(double a, double b) { return (a + b) * (a + b) / (2 * (a * a + b * b)); }

// Goodput in Mbit/s of `bytes` over `d`.
double mbps(std::uint64_t bytes, Duration d) { return bytes * 8.0 / std::chrono::duration<double>(d).count() / 1e6; }

// Settings of an inner core of a MuxCore (one byte of each datagram is the core index).
TcpncCoreSettings inner(TcpncCoreSettings s) {
  s.max_datagram_bytes -= 1;
  return s;
}

// Two endpoints each multiplexing `a` and `b` (settings of tunnel 0 and tunnel 1), over the path;
// loss `e` after the bottleneck on the data direction. Tunnel 1 starts `delay1` after tunnel 0.
struct Shared {
  std::unique_ptr<Simulation> sim;
  sim::MuxCore* a = nullptr;
  Shared(const TcpncCoreSettings& s0, const TcpncCoreSettings& s1, double e, Duration delay1, std::uint64_t seed) {
    sim = std::make_unique<Simulation>(seed);
    for (Side side : {Side::a, Side::b}) {
      std::vector<std::unique_ptr<transport::Core>> cores;
      cores.push_back(std::make_unique<TcpncCore>(inner(s0), sim->seed_for(side == Side::a ? 11 : 12)));
      cores.push_back(std::make_unique<TcpncCore>(inner(s1), sim->seed_for(side == Side::a ? 13 : 14)));
      auto mux = std::make_unique<sim::MuxCore>(std::move(cores));
      if (side == Side::a) {
        mux->add_source(0, kPacket, TimePoint{});
        mux->add_source(1, kPacket, TimePoint{} + delay1);
        a = mux.get();
      }
      sim->set_core(side, std::move(mux));
      sim::Link& l = sim->link_from(side);
      l.add<sim::Bottleneck>(kRate, 29, kQueue);
      if (side == Side::a && e > 0) l.add<sim::BernoulliLoss>(e, sim->seed_for(21));
      l.add<sim::Delay>(kOneWay);
    }
  }
  // Per-tunnel goodput (Mbit/s) over the next `d`.
  std::pair<double, double> measure(Duration d) {
    auto& b = sim->core_as<sim::MuxCore>(Side::b);
    const auto b0 = b.delivered(0), b1 = b.delivered(1);
    sim->run_for(d);
    return {mbps(b.delivered(0) - b0, d), mbps(b.delivered(1) - b1, d)};
  }
};

class TcpncShare : public ::testing::TestWithParam<double> {};

TEST_P(TcpncShare, TwoDefaultTunnelsShareOneBottleneck) {
  const double e = GetParam();
  Shared s(TcpncCoreSettings{}, TcpncCoreSettings{}, e, 2s, 8101 + static_cast<std::uint64_t>(e * 1000));
  s.sim->run_for(20s);
  const auto [g0, g1] = s.measure(10s);
  auto& b = s.sim->core_as<sim::MuxCore>(Side::b);
  std::printf("[tcpnc-share] loss=%.3f tunnel0=%.2f Mbit/s tunnel1=%.2f Mbit/s total=%.2f jain=%.4f\n", e, g0, g1,
              g0 + g1, jain(g0, g1));
  EXPECT_EQ(b.sink(0).errors(), 0u) << b.sink(0).first_error();
  EXPECT_EQ(b.sink(1).errors(), 0u) << b.sink(1).first_error();
  EXPECT_GE(jain(g0, g1), 0.95);
  EXPECT_GE(g0 + g1, 0.85 * (1 - e) * 100 * kPacket / (kPacket + 30 + 29));
}

INSTANTIATE_TEST_SUITE_P(Loss, TcpncShare, ::testing::Values(0.0, 0.01));

TEST(TcpncShare, AgainstALossBasedFlowTheShareIsReported) {
  TcpncCoreSettings cubic;
  cubic.congestion_control = CcAlgorithm::kCubic;  // loss-based, unpaced, no coding: a TCP stand-in
  cubic.fixed_n = 16;
  cubic.fixed_k = 0;
  Shared s(TcpncCoreSettings{}, cubic, 0.0, 0s, 8201);
  s.sim->run_for(10s);
  const auto [g0, g1] = s.measure(20s);
  auto& b = s.sim->core_as<sim::MuxCore>(Side::b);
  std::printf("[tcpnc-share] default tunnel %.2f Mbit/s vs CUBIC-like flow %.2f Mbit/s: share %.3f, jain %.4f\n", g0,
              g1, g0 / (g0 + g1), jain(g0, g1));
  EXPECT_EQ(b.sink(0).errors(), 0u) << b.sink(0).first_error();
  EXPECT_EQ(b.sink(1).errors(), 0u) << b.sink(1).first_error();
  EXPECT_GT(g0, 1.0);  // both make progress; the split is what this test reports
  EXPECT_GT(g1, 1.0);
}

TEST(TcpncShare, YieldsToAStepOfCrossTrafficAndTakesTheRateBack) {
  // Constant-rate cross traffic of 50 Mbit/s from 10 s to 20 s, modelled as a capacity step of the
  // bottleneck (the cross flow's packets are not simulated).
  auto sim = std::make_unique<Simulation>(8301);
  sim::Bottleneck* bottleneck = nullptr;
  for (Side side : {Side::a, Side::b}) {
    sim->set_core(side, std::make_unique<TcpncCore>(TcpncCoreSettings{}, sim->seed_for(side == Side::a ? 11 : 12)));
    sim::Link& l = sim->link_from(side);
    auto& bn = l.add<sim::Bottleneck>(kRate, 28, kQueue);
    if (side == Side::a) bottleneck = &bn;
    l.add<sim::Delay>(kOneWay);
  }
  sim->set_source(Side::a, std::make_unique<sim::BulkSource>(kPacket, 1));
  sim->ep(Side::b).sink.set_allow_gaps(true);  // the entrance AQM may drop what the bulk source forces in
  const sim::Sink& sink = sim->ep(Side::b).sink;
  std::vector<double> per_second;
  std::uint64_t drops_before_step = 0;
  for (int t = 0; t < 30; ++t) {
    if (t == 10) { bottleneck->set_rate(kRate / 2); drops_before_step = bottleneck->dropped(); }
    if (t == 20) bottleneck->set_rate(kRate);
    const auto b0 = sink.bytes();
    sim->run_for(1s);
    per_second.push_back(mbps(sink.bytes() - b0, 1s));
  }
  auto avg = [&](int from, int to) {
    double sum = 0;
    for (int t = from; t < to; ++t) sum += per_second[t];
    return sum / (to - from);
  };
  std::printf("[tcpnc-cross] per second:");
  for (double g : per_second) std::printf(" %.1f", g);
  std::printf("\n[tcpnc-cross] before %.2f, during (12-20 s) %.2f, after (25-30 s) %.2f Mbit/s; bottleneck drops "
              "during the step %llu, max queue %zu/%zu\n",
              avg(5, 10), avg(12, 20), avg(25, 30), (unsigned long long)(bottleneck->dropped() - drops_before_step),
              bottleneck->max_occupancy(), kQueue);
  EXPECT_EQ(sink.errors(), 0u) << sink.first_error();
  EXPECT_LE(avg(12, 20), 0.55 * 100);
  EXPECT_GE(avg(12, 20), 0.35 * 100);
  EXPECT_GE(avg(25, 30), 0.9 * avg(5, 10));
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
