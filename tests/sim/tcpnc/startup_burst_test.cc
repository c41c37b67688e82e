// An end host in slow start behind a tunnel still in BBR's Startup: the tunnel's rate estimate lags
// the host by a round, and the host's window grows in bursts. Paced at the estimate, those bursts
// would wait at the tunnel's entrance for several milliseconds a round, which CUBIC's HyStart reads
// as the end of slow start (it exits at 4 ms or more of added delay). The tunnel must pass them on
// within about a millisecond, as a fast bottleneck without a tunnel would.
// A fresh tunnel's window must not hold such a host back either.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "tests/sim/tcpnc/harness.h"

namespace ncgw::tcpnc::simtest {
namespace {

constexpr double kRate = 100e6;
constexpr auto kOneWay = 25ms;
constexpr std::size_t kPacket = 1400;
constexpr std::size_t kBottleneckQueue = 450;  // about one BDP of datagrams

// Two tunnel cores with settings `s` over a 100 Mbit/s, 25 ms bottleneck each way, and an end host
// behind side a whose window (10 packets to begin with) counts against side b's deliveries.
sim::WindowSource& host_behind_tunnel(Simulation& sim, const TcpncCoreSettings& s) {
  for (Side side : {Side::a, Side::b}) {
    sim.set_core(side, std::make_unique<TcpncCore>(s, sim.seed_for(side == Side::a ? 11 : 12)));
    sim::Link& l = sim.link_from(side);
    l.add<sim::Bottleneck>(kRate, 28, kBottleneckQueue);
    l.add<sim::Delay>(kOneWay);
  }
  sim::Sink& sink = sim.ep(Side::b).sink;
  auto source = std::make_unique<sim::WindowSource>(kPacket, 1, 10, [&sink] { return sink.expected(); });
  sim::WindowSource& host = *source;
  sim.set_source(Side::a, std::move(source));
  return host;
}

TEST(TcpncStartup, SlowStartBurstsDoNotWaitAtTheEntrance) {
  Simulation sim(9401);
  sim::WindowSource& host = host_behind_tunnel(sim, TcpncCoreSettings{});  // the defaults: what a user gets
  sim::Sink& sink = sim.ep(Side::b).sink;
  // A light flow first: the tunnel's rate estimate is what a 10-packet window carries.
  sim.run_for(1s);
  const auto& a = *sim.ep(Side::a).core;
  ASSERT_EQ(stat(a, "bbr_mode"), 0) << "the tunnel left Startup on light, application-limited input";
  const double long_before = stat(a, "entrance_long_waits"), sent_before = stat(a, "sources_sent");
  const double wait_before = stat(a, "entrance_wait_ms_total");
  // Slow start: the window doubles every round trip up to about 0.75 of what the path carries in
  // the source's own feedback time (one way: the window counts against the far sink's deliveries),
  // so no queue at the bottleneck is needed to carry it.
  for (std::uint64_t w = 20; w <= 160; w *= 2) {
    host.set_window(w);
    sim.run_for(2 * kOneWay);
  }
  sim.run_for(200ms);
  const double sources = stat(a, "sources_sent") - sent_before;
  const double long_waits = stat(a, "entrance_long_waits") - long_before;
  const double mean_wait_ms = (stat(a, "entrance_wait_ms_total") - wait_before) / sources;
  std::printf("[tcpnc-startup] 100 Mbit/s, 50 ms RTT, window 10 -> 160 doubling per round trip: %.0f sources, "
              "%.0f waited over 4 ms at the entrance, mean wait %.3f ms; mode %g, pacing rate %.0f/s, rate "
              "estimate %.0f/s\n",
              sources, long_waits, mean_wait_ms, stat(a, "bbr_mode"), stat(a, "pacing_rate_pps"), stat(a, "bbr_bw_pps"));
  EXPECT_GT(sources, 600);
  EXPECT_EQ(long_waits, 0);
  EXPECT_LT(mean_wait_ms, 1.0);
  EXPECT_EQ(sink.errors(), 0u) << sink.first_error();
}

// A flow that starts on a fresh tunnel: its window doubles every round trip from the hosts' initial
// window of 10, and the tunnel's own window starts at its initial window. Each round the tunnel
// carries the flow's packets plus the repairs of the coding windows they fill, and its window grows
// only as its own transmissions are acknowledged; a window that starts at the host's 10 and doubles
// per round falls short in every round, and what it holds back waits a round trip. (Here the
// source's window counts against the far sink's deliveries, one way, so the tunnel must carry about
// twice what a real host's window would put in flight: a harder case than a real host.) Before the
// loss estimate has much to go on, the CWs carry the repairs a prior channel asks for (up to 1.75 x
// their sources here, at 8-source CWs; coding/loss_prior.h): the tunnel's window takes its first
// round's repairs on top of the initial window, but this host's doubled demand still fills it in
// one later round (13 of 2,271 packets waited over 4 ms, against 2 of 2,430 without the prior).
TEST(TcpncStartup, AFreshTunnelDoesNotHoldTheFirstRoundsOfAFlow) {
  // BBR's usual start (a window of 10 that doubles per round), then the defaults (32, growth 2).
  const TcpncCoreSettings defaults;
  const std::uint32_t initial[2] = {10, defaults.initial_cwnd_packets};
  const double growth[2] = {1, defaults.startup_cwnd_growth};
  double long_waits[2] = {0, 0}, sources[2] = {0, 0}, mean_wait_ms[2] = {0, 0};
  for (int i : {0, 1}) {
    Simulation sim(9402);
    TcpncCoreSettings s;
    s.initial_cwnd_packets = initial[i];
    s.startup_cwnd_growth = growth[i];
    sim::WindowSource& host = host_behind_tunnel(sim, s);
    sim::Sink& sink = sim.ep(Side::b).sink;
    for (std::uint64_t w = 20; w <= 320; w *= 2) {
      sim.run_for(2 * kOneWay);
      host.set_window(w);
    }
    sim.run_for(200ms);
    const auto& a = *sim.ep(Side::a).core;
    sources[i] = stat(a, "sources_sent");
    long_waits[i] = stat(a, "entrance_long_waits");
    mean_wait_ms[i] = stat(a, "entrance_wait_ms_total") / sources[i];
    std::printf("[tcpnc-startup] fresh tunnel, initial window %u, Startup growth %g, host window 10 -> 320 doubling "
                "per round trip: %.0f sources, %.0f waited over 4 ms at the entrance, mean wait %.3f ms\n",
                initial[i], growth[i], sources[i], long_waits[i], mean_wait_ms[i]);
    EXPECT_EQ(sink.errors(), 0u) << sink.first_error();
  }
  EXPECT_LE(long_waits[1], 0.01 * sources[1]);
  EXPECT_LT(mean_wait_ms[1], 0.5);
  EXPECT_GT(long_waits[0], 10 * std::max(long_waits[1], 1.0)) << "the initial window should matter here";
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
