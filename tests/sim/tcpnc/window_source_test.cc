// The default TCP/NC tunnel fed by a window-limited sender (how an end host's TCP looks to the
// tunnel once the tunnel hides the link's loss: closed-loop, application-limited whenever its
// window is the limit) on a long fat path with heavy bursty loss: 200 Mbit/s, 150 ms RTT,
// Gilbert-Elliott 15 % with mean burst 3 after the bottleneck.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/sim/tcpnc/harness.h"

namespace ncgw::tcpnc::simtest {
namespace {

constexpr double kRate = 200e6;
constexpr auto kOneWay = 75ms;
constexpr std::size_t kPacket = 1400;

double datagram_bits() { return (kPacket + kDataHeaderSize + kCodingOverhead + 28) * 8.0; }
std::size_t bdp_packets() { return bdp_datagrams(kRate, kOneWay, kPacket); }

// Link payload rate times (1 - e): what the tunnel could deliver at the erasure limit.
double limit_bps(double e) { return kRate * kPacket * 8 / datagram_bits() * (1 - e); }

// The path with the default cores, GE loss `e` / `burst` on the data direction, and a window
// source of `window_bdps` path BDPs counted against the far sink's deliveries.
std::unique_ptr<Simulation> build_path(double e, double burst, double window_bdps, std::uint64_t seed) {
  auto sim = std::make_unique<Simulation>(seed);
  const TcpncCoreSettings s;  // the defaults: what a user gets
  for (Side side : {Side::a, Side::b}) {
    sim->set_core(side, std::make_unique<TcpncCore>(s, sim->seed_for(side == Side::a ? 11 : 12)));
    sim::Link& l = sim->link_from(side);
    l.add<sim::Bottleneck>(kRate, 28, bdp_packets());
    if (side == Side::a) l.add_element(sim::GilbertElliottLoss::from_rate_and_burst(e, burst, sim->seed_for(21)));
    l.add<sim::Delay>(kOneWay);
  }
  sim::Sink& sink = sim->ep(Side::b).sink;
  sink.set_allow_gaps(true);  // the entrance AQM may drop what it accepted; the source moves on
  const auto w = static_cast<std::uint64_t>(window_bdps * static_cast<double>(bdp_packets()));
  sim->set_source(Side::a, std::make_unique<sim::WindowSource>(kPacket, 1, w, [&sink] { return sink.expected(); }));
  return sim;
}

// The tunnel finds the path's rate and carries most of what the erasure limit allows although
// its input is closed-loop (the netns benchmark's open question: there, with end hosts' TCP as
// input, the tunnel's rate estimate once ended at a quarter of the link). What it costs in delay
// is reported: every coding window that needs a retransmission round holds in-order delivery of
// the ones after it for a round trip, which an end host's TCP sees as RTT.
TEST(TcpncWindowSource, HeavyBurstyLossOnALongFatPath) {
  constexpr double kLoss = 0.15, kBurst = 3;
  auto sim = build_path(kLoss, kBurst, 2.0, 9301);
  const BulkResult r = run_bulk(*sim, 5s, 10s);
  const auto& a = *sim->ep(Side::a).core;
  const double link_pps = kRate / datagram_bits();
  std::printf("[tcpnc-window] 200 Mbit/s, 150 ms RTT, GE 15 %% burst 3, window 2 BDP (%zu packets each): goodput "
              "%.1f Mbit/s = %.3f of (1 - e) x link payload; rate estimate %.0f of %.0f datagrams/s; delivery delay "
              "mean %.0f ms, p99 %.0f ms (one way %lld ms); CW failures %g, entrance AQM drops %g\n",
              bdp_packets(), r.goodput_bps / 1e6, r.goodput_bps / limit_bps(kLoss), stat(a, "bbr_bw_pps"), link_pps,
              r.mean_delay_ms, r.p99_delay_ms, static_cast<long long>(kOneWay.count()), stat(a, "congestion_cws"),
              stat(a, "aqm_drops"));
  EXPECT_EQ(r.errors, 0u) << r.first_error;
  EXPECT_GE(stat(a, "bbr_bw_pps"), 0.9 * link_pps);
  EXPECT_LE(stat(a, "bbr_bw_pps"), 1.1 * link_pps);
  // Measured 0.916 with this seed; seeds 9301-9308 gave 0.83-0.92, mean 0.886, since the spare
  // plan's extra repairs yield to waiting input (CwState::urgent_k); 0.78-0.93, mean 0.859, with
  // rounds priced by what they cost (RoundCostMeter); before that 0.74-0.91, mean 0.845 (0.864 without the loss
  // prior of coding/loss_prior.h, which acts only in the first second: the spread is which seeds
  // meet an RTO).
  EXPECT_GE(r.goodput_bps, 0.7 * limit_bps(kLoss));
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
