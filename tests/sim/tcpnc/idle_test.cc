// Sparse traffic through the default TCP/NC configuration: interactive packets (one every 50 ms)
// over a 20 Mbit/s, 60 ms RTT path with 5 % random loss. Each packet closes its CW alone (input
// paused), so without repairs a lost one waits a coded retransmission round (one RTT and more);
// with the idle target (idle_retransmission_target, default 0.01) a lone packet gets a repair and
// a loss costs no round trip. A bulk transfer comes first, so the loss estimate is valid, as it is
// on a tunnel that has carried anything. Both settings run on the same seeded loss pattern.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/sim/tcpnc/harness.h"

namespace ncgw::tcpnc::simtest {
namespace {

constexpr std::uint64_t kBulk = 3000;   // a transfer first, so the loss estimate is valid
constexpr std::uint64_t kSparse = 400;  // then lone packets, one every 50 ms
constexpr auto kOneWay = 30ms;

// kBulk packets offered as fast as the core takes them, then kSparse lone packets 50 ms apart,
// one numbered stream.
class BulkThenSparse : public sim::Source {
 public:
  void pump(transport::Core& core, TimePoint now) override {
    while (seq_ < kBulk + kSparse) {
      if (seq_ >= kBulk) {
        if (!next_lone_) next_lone_ = now + 50ms;
        if (now < *next_lone_) return;
        *next_lone_ += 50ms;
      }
      sim::stamp_source_packet(buf_, 1, seq_, now);
      if (core.send(buf_, now) != transport::SendResult::accepted) return;
      ++seq_;
    }
  }
  std::optional<TimePoint> next_time() const override {
    return seq_ >= kBulk && seq_ < kBulk + kSparse ? next_lone_ : std::nullopt;
  }

 private:
  std::vector<std::uint8_t> buf_ = std::vector<std::uint8_t>(1200);
  std::uint64_t seq_ = 0;
  std::optional<TimePoint> next_lone_;
};

// What one run printed and counted.
struct IdleRun {
  double q97_ms = 0, max_ms = 0;
  double retransmissions = 0, idle_cws = 0;
  std::uint64_t sparse_delivered = 0, errors = 0;
  std::uint64_t delivered_or_dropped = 0;  // all packets delivered plus those the AQM dropped
};

// One run with the default settings but `idle_target` and `price_rounds`; delays are of the lone
// packets only.
IdleRun run_sparse(double idle_target, bool price_rounds = true) {
  auto sim = std::make_unique<Simulation>(8101);
  TcpncCoreSettings s;  // the defaults
  s.idle_retransmission_target = idle_target;
  s.price_rounds = price_rounds;
  for (Side side : {Side::a, Side::b}) {
    sim->set_core(side, std::make_unique<TcpncCore>(s, sim->seed_for(side == Side::a ? 11 : 12)));
    sim::Link& l = sim->link_from(side);
    // About two BDPs of queue: start-up's overshoot, overflowing a shorter one, is a burst of loss
    // the coding layer's estimator would count as the link's (bursty), and its plan would then give
    // every lone packet a repair of its own, leaving nothing for the idle rule to show.
    l.add<sim::Bottleneck>(20e6, 28, 250);
    if (side == Side::a) l.add<sim::BernoulliLoss>(0.05, sim->seed_for(21));
    l.add<sim::Delay>(kOneWay);
  }
  sim->set_source(Side::a, std::make_unique<BulkThenSparse>());
  sim::Sink& sink = sim->ep(Side::b).sink;
  // The bulk phase offers faster than the path drains, so the entrance AQM drops some of it (each
  // counted in aqm_drops): gaps are allowed there, never duplicates or reordering.
  sink.set_allow_gaps(true);
  sim->run_until([&] { return sink.expected() >= kBulk; }, sim->now() + 30s);
  sink.reset_delays();
  const double idle_before = stat(*sim->ep(Side::a).core, "idle_cws");
  const double retx_before = stat(*sim->ep(Side::a).core, "retransmissions");
  // Where the AQM dropped the last bulk packet, the first lone one is what moved expected() past
  // kBulk: it counts as sparse.
  const std::uint64_t before = sink.packets() - (sink.expected() - kBulk);
  sim->run_until([&] { return sink.expected() >= kBulk + kSparse; }, sim->now() + 60s);
  const transport::Core& a = *sim->ep(Side::a).core;
  return {sink.delay_quantile_ms(0.97), sink.max_delay_ms(), stat(a, "retransmissions") - retx_before,
          stat(a, "idle_cws") - idle_before, sink.packets() - before, sink.errors(),
          static_cast<std::uint64_t>(stat(a, "aqm_drops")) + sink.packets()};
}

TEST(TcpncIdle, LonePacketsGetRepairsSoALossCostsNoRoundTrip) {
  const IdleRun with = run_sparse(0.01);
  // 1: the idle rule is off. Rounds priced at nothing too: a round over a path that idles (these
  // packets leave it idle) costs a min RTT of its capacity, which alone buys most lone packets a
  // repair (printed below).
  const IdleRun without = run_sparse(1.0, false);
  const IdleRun priced = run_sparse(1.0, true);
  std::printf("idle rule off, rounds priced: 97th percentile / max %.0f / %.0f ms (retransmissions %.0f)\n",
              priced.q97_ms, priced.max_ms, priced.retransmissions);
  std::printf("one-way delay of lone packets, 5 %% loss, 30 ms propagation: 97th percentile / max "
              "%.0f / %.0f ms with the idle target (idle CWs %.0f, retransmissions %.0f), "
              "%.0f / %.0f ms without (idle CWs %.0f, retransmissions %.0f)\n",
              with.q97_ms, with.max_ms, with.idle_cws, with.retransmissions, without.q97_ms, without.max_ms,
              without.idle_cws, without.retransmissions);
  for (const IdleRun* r : {&with, &without}) {
    EXPECT_EQ(r->sparse_delivered, kSparse);
    EXPECT_EQ(r->delivered_or_dropped, kBulk + kSparse);
    EXPECT_EQ(r->errors, 0u);
  }
  // With repairs, at least 97 % of the packets arrive within the propagation delay plus a little
  // (no retransmission round); without them, about 5 % wait a round trip or more.
  EXPECT_GE(with.idle_cws, kSparse * 0.9);
  EXPECT_LT(with.q97_ms, 30 + 10);
  EXPECT_EQ(without.idle_cws, 0);
  EXPECT_GT(without.q97_ms, 30 + 60);
  EXPECT_LT(with.retransmissions, without.retransmissions / 3);
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
