// UDT in the shared virtual-time simulator: link utilisation on a 100 Mbit/s, 50 ms RTT path,
// fairness of two flows sharing it (with the library's and the tunnel's decrease rule), and the
// precision of the sender's pacing. Every run prints its seed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>

#include "tests/sim/common/simulation.h"
#include "tests/sim/udt/sim_path.h"
#include "transports/udt/udt_tunnel_core.h"

namespace ncgw::udt {
namespace {

using namespace std::chrono_literals;
using sim::Side;
using sim::Simulation;
using transport::TimePoint;

using namespace simpath;

void build_path(Simulation& s, std::size_t queue_packets) {
  s.link_from(Side::a).add<sim::Bottleneck>(kRate, 28, queue_packets);
  s.link_from(Side::a).add<sim::Delay>(25ms);
  s.link_from(Side::b).add<sim::Bottleneck>(kRate, 28, queue_packets);
  s.link_from(Side::b).add<sim::Delay>(25ms);
}

// Steady-state link utilisation of one tunnel flow (queue: 600 packets, 1.4 x BDP).
double utilisation(int max_decreases_per_epoch) {
  Simulation s(20240601);
  const char* q = std::getenv("UDT_SIM_QUEUE");
  build_path(s, q ? std::atoi(q) : 600);
  auto ta = tunnel(TunnelRole::caller, kB, s.seed_for(1));
  auto tb = tunnel(TunnelRole::listener, kA, s.seed_for(2));
  ta.conn.max_decreases_per_epoch = tb.conn.max_decreases_per_epoch = max_decreases_per_epoch;
  s.set_core(Side::a, std::make_unique<UdtTunnelCore>(ta));
  s.set_core(Side::b, std::make_unique<UdtTunnelCore>(tb));
  s.set_source(Side::a, std::make_unique<sim::BulkSource>(kPacket, 1));
  s.run_for(15s);  // slow start and the first congestion epochs
  const auto b0 = s.ep(Side::b).sink.bytes();
  const TimePoint t0 = s.now();
  s.run_for(30s);
  const double goodput = sim::goodput_bps(b0, t0, s.ep(Side::b).sink.bytes(), s.now());
  const double utilisation = goodput / kPacket * kWireBytes / kRate;
  std::printf("[udt-sim] decreases/epoch %d: goodput %.2f Mbit/s, link utilisation %.1f%%, retransmitted %g\n",
              max_decreases_per_epoch, goodput / 1e6, 100 * utilisation,
              s.core_as<UdtTunnelCore>(Side::a).stats()[13].value);
  EXPECT_EQ(s.ep(Side::b).sink.errors(), 0u) << s.ep(Side::b).sink.first_error();
  return utilisation;
}

TEST(UdtSim, FillsA100MbitPathWith50msRtt) {
  EXPECT_GE(utilisation(1), 0.90);  // the tunnel's setting
}

TEST(UdtSim, LibraryDecreaseRuleStillUsesMostOfThePath) {
  EXPECT_GE(utilisation(wire::kMaxDecreasesPerEpoch), 0.85);  // CUDTCC as in 4.11: ~89% here
}

// Two UDT connections multiplexed on one endpoint per side, fed round robin; counts per flow.
class TwoFlowCore : public transport::Core {
 public:
  TwoFlowCore(bool caller, std::uint64_t seed, const PeerAddress& peer, int max_decreases)
      : ep_(seed), peer_(peer), caller_(caller) {
    s_.type = SocketType::dgram;
    s_.max_decreases_per_epoch = max_decreases;
    if (!caller) ep_.listen(s_);
  }
  // Opens flow i (caller side).
  void open(TimePoint now) { ids_.push_back(ep_.connect(peer_, s_, now)); }
  void on_datagram(std::span<const std::uint8_t> b, TimePoint now) override { ep_.on_datagram(b, peer_, now); accept(); }
  void on_timeout(TimePoint now) override { ep_.on_timeout(now); accept(); }
  transport::SendResult send(std::span<const std::uint8_t> p, TimePoint now) override {
    for (std::size_t k = 0; k < ids_.size(); ++k) {
      Connection* c = ep_.find(ids_[(rr_ + k) % ids_.size()]);
      if (c && c->connected() && c->send_message(p, now)) {
        rr_ = (rr_ + k + 1) % ids_.size();
        return transport::SendResult::accepted;
      }
    }
    return transport::SendResult::buffer_full;
  }
  std::optional<std::size_t> poll_transmit(std::span<std::uint8_t> out, TimePoint now) override {
    const auto t = ep_.poll_transmit(out, now);
    return t ? std::optional<std::size_t>(t->size) : std::nullopt;
  }
  std::optional<std::size_t> poll_deliver(std::span<std::uint8_t> out) override {
    for (std::size_t i = 0; i < ids_.size(); ++i) {
      Connection* c = ep_.find(ids_[i]);
      while (c) {
        const auto n = c->recv_message(out);
        if (!n) break;
        bytes_[i] += *n;
      }
    }
    return std::nullopt;  // counted per flow here, not passed to the single-stream sink
  }
  std::optional<TimePoint> next_deadline() const override { return ep_.next_deadline(); }
  std::size_t max_payload() const override { return kPacket; }
  std::vector<transport::StatEntry> stats() const override { return {}; }
  std::uint64_t bytes(std::size_t i) const { return bytes_[i]; }

 private:
  void accept() {
    while (auto id = ep_.accept()) ids_.push_back(*id);
  }
  Endpoint ep_;
  PeerAddress peer_;
  bool caller_;
  ConnectionSettings s_;
  std::vector<std::int32_t> ids_;
  std::size_t rr_ = 0;
  std::uint64_t bytes_[2] = {0, 0};
};

// Jain's index of two flows (the second joins 5 s later) over 30 s after 45 s, with CUDTCC's
// decreases per epoch capped at `max_decreases`.
void expect_fair_share(int max_decreases) {
  Simulation s(777);
  build_path(s, 600);
  auto a = std::make_unique<TwoFlowCore>(true, s.seed_for(1), kB, max_decreases);
  auto b = std::make_unique<TwoFlowCore>(false, s.seed_for(2), kA, max_decreases);
  TwoFlowCore* ca = a.get();
  TwoFlowCore* cb = b.get();
  s.set_core(Side::a, std::move(a));
  s.set_core(Side::b, std::move(b));
  s.set_source(Side::a, std::make_unique<sim::BulkSource>(kPacket, 1));
  ca->open(s.now());
  s.run_for(5s);
  ca->open(s.now());  // the second flow joins late
  s.run_for(40s);
  const std::uint64_t x0 = cb->bytes(0), y0 = cb->bytes(1);
  s.run_for(30s);
  const double x = static_cast<double>(cb->bytes(0) - x0), y = static_cast<double>(cb->bytes(1) - y0);
  const double jain = (x + y) * (x + y) / (2 * (x * x + y * y));
  std::printf("[udt-sim] decreases/epoch %d: flow 1 %.2f Mbit/s, flow 2 %.2f Mbit/s, Jain %.3f, total utilisation %.1f%%\n",
              max_decreases, x * 8 / 30e6, y * 8 / 30e6, jain, 100 * (x + y) / kPacket * kWireBytes * 8 / 30 / kRate);
  EXPECT_GE(jain, 0.95);
  EXPECT_GT(x + y, 0.8 * kRate / 8 * 30 * kPacket / kWireBytes);
}

TEST(UdtSim, TwoFlowsConvergeToAFairShare) { expect_fair_share(wire::kMaxDecreasesPerEpoch); }
TEST(UdtSim, TwoFlowsConvergeToAFairShareWithTheTunnelSetting) { expect_fair_share(1); }

// Pacing: every data packet has its own deadline. With the simulator's exact driver, the gap after a
// packet equals the sending period in force when it left, except after the first packet of a
// packet pair (seq & 0xF == 0, sent back to back by design) and after idle time, where at most
// pacing_credit_us of debt is paid back-to-back. Measured over 5 s of steady state on the 100 Mbit/s
// path: no two consecutive non-pair gaps are shorter than period / 2, and 95% of the gaps are within
// 1% of the period.
// PaUDT's window rule over a path whose pipe and queue hold about 24 packets (10 Mbit/s, 18 ms
// RTT: a BDP of 15 full packets, 9 more queued): the window starts at 16, grows additively, the
// queue overflows at 24 and three NAKs set the threshold to half the window and the window to it,
// as paper 000's Figure 1 describes; then the saw-tooth repeats. Detection (a round trip, then
// three NAKs) lets the window pass 24 by a few packets before the decrease (measured: 30).
TEST(UdtSim, PaudtWindowFollowsThePapersFigureOne) {
  Simulation s(1601);
  for (Side side : {Side::a, Side::b}) {
    s.link_from(side).add<sim::Bottleneck>(10e6, 28, 9);
    s.link_from(side).add<sim::Delay>(9ms);
  }
  auto ta = tunnel(TunnelRole::caller, kB, s.seed_for(1));
  auto tb = tunnel(TunnelRole::listener, kA, s.seed_for(2));
  ta.conn.congestion_control = tb.conn.congestion_control = CcKind::paudt;
  s.set_core(Side::a, std::make_unique<UdtTunnelCore>(ta));
  s.set_core(Side::b, std::make_unique<UdtTunnelCore>(tb));
  s.set_source(Side::a, std::make_unique<sim::BulkSource>(kPacket, 1));
  const auto& core = s.core_as<UdtTunnelCore>(Side::a);
  double first_window = 0, peak = 0, threshold_after = 0, low = 1e9, high = 0;
  int decreases = 0;
  double last_threshold = 0;
  for (int ms = 0; ms < 20000; ++ms) {
    s.run_for(1ms);
    if (stat(core, "connected") == 0) continue;
    const double w = stat(core, "congestion_window_packets"), t = stat(core, "slow_start_threshold_packets");
    if (first_window == 0) first_window = w;
    if (t < last_threshold) {
      if (++decreases == 1) threshold_after = t;
    }
    if (decreases == 0) peak = std::max(peak, w);
    if (ms > 10000) low = std::min(low, w), high = std::max(high, w);
    last_threshold = t;
  }
  std::printf("[udt-sim] paudt: first window %.1f, peak before the first decrease %.2f, threshold after it %.2f, "
              "%d decreases, window %.1f..%.1f in the last 10 s, goodput %.2f Mbit/s\n",
              first_window, peak, threshold_after, decreases, low, high,
              s.ep(Side::b).sink.bytes() * 8 / 20e6);
  EXPECT_EQ(first_window, 16);
  EXPECT_GE(peak, 22);
  EXPECT_LE(peak, 32);
  EXPECT_NEAR(threshold_after, peak / 2, 0.01);
  EXPECT_GE(decreases, 3);
  EXPECT_GE(low, 10);
  EXPECT_LE(high, 34);
  EXPECT_EQ(s.ep(Side::b).sink.errors(), 0u) << s.ep(Side::b).sink.first_error();
  EXPECT_GE(s.ep(Side::b).sink.bytes() * 8 / 20e6, 5.0);
}

TEST(UdtSim, PacingGapsFollowThePeriod) {
  Simulation s(4242);
  struct Departure { TimePoint at; std::int32_t seq; double period_us; };
  std::vector<Departure> log;
  bool recording = false;
  const UdtTunnelCore* core = nullptr;
  s.link_from(Side::a).add<sim::DropIf>([&](std::span<const std::uint8_t> b, std::uint64_t, TimePoint at) {
    if (recording && (b[0] & 0x80) == 0) {
      const auto seq = static_cast<std::int32_t>((std::uint32_t{b[0]} << 24 | std::uint32_t{b[1]} << 16 |
                                                  std::uint32_t{b[2]} << 8 | b[3]) & 0x7FFFFFFF);
      log.push_back({at, seq, core->connection()->stats().period_us});
    }
    return false;
  });
  build_path(s, 600);
  auto ta = tunnel(TunnelRole::caller, kB, s.seed_for(1));
  auto tb = tunnel(TunnelRole::listener, kA, s.seed_for(2));
  auto ca = std::make_unique<UdtTunnelCore>(ta);
  core = ca.get();
  s.set_core(Side::a, std::move(ca));
  s.set_core(Side::b, std::make_unique<UdtTunnelCore>(tb));
  s.set_source(Side::a, std::make_unique<sim::BulkSource>(kPacket, 1));
  s.run_for(15s);
  recording = true;
  s.run_for(5s);
  ASSERT_GT(log.size(), 10000u);
  std::size_t gaps = 0, within_1pct = 0, fast = 0, pairs = 0, longest_fast_run = 0, run = 0;
  double sum_ratio = 0;
  for (std::size_t i = 0; i + 1 < log.size(); ++i) {
    const double gap = std::chrono::duration<double, std::micro>(log[i + 1].at - log[i].at).count();
    if ((log[i].seq & 0xF) == 0) {  // packet pair: the next one goes back to back
      ++pairs;
      continue;
    }
    const double r = gap / log[i].period_us;
    ++gaps;
    sum_ratio += std::min(r, 2.0);
    within_1pct += r > 0.99 && r < 1.01;
    if (r < 0.5) {
      ++fast;
      longest_fast_run = std::max(longest_fast_run, ++run);
    } else {
      run = 0;
    }
  }
  std::printf("[udt-sim] pacing: %zu gaps (+%zu pair gaps), %.2f%% within 1%% of the period, %zu shorter than "
              "period/2 (longest run %zu), mean gap/period %.3f, period at the end %.1f us\n",
              gaps, pairs, 100.0 * within_1pct / gaps, fast, longest_fast_run, sum_ratio / gaps, log.back().period_us);
  EXPECT_LE(longest_fast_run, 1u);
  EXPECT_GE(static_cast<double>(within_1pct) / gaps, 0.95);
}

}  // namespace
}  // namespace ncgw::udt
