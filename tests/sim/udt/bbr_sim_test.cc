// UDT with the model-based controller (`congestion_control: bbr`) in virtual time, beside the
// library's CUDTCC on the same path and seed: a 100 Mbit/s, 50 ms RTT path with a one-BDP
// drop-tail queue, without loss and with 1 % and 5 % random loss after the bottleneck. What it
// must show: the link is used (goodput near (1 - e) of its payload rate, and under loss far more
// than CUDTCC's), the queue is not kept full (few drops at the bottleneck), and every packet
// arrives once and in order. Every run prints its seed. (On emulated links with bursty arrivals
// the controller does worse than here: docs/results/udt-parallel.md.)
#include <gtest/gtest.h>

#include <cstdio>

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

constexpr std::size_t kQueue = 420;  // one BDP of full packets at 50 ms

// What one run measured over its last 20 s.
struct Outcome {
  double utilisation = 0;        // goodput in wire bytes over the link rate
  std::uint64_t queue_drops = 0; // drops at the bottleneck, data direction
  std::uint64_t queue_seen = 0;  // packets that reached it
  std::size_t max_queue = 0;     // most packets queued at once there
  double retransmitted = 0;
};

Outcome run(CcKind cc, double loss, std::uint64_t seed) {
  Simulation s(seed);
  auto& bottleneck = s.link_from(Side::a).add<sim::Bottleneck>(kRate, 28, kQueue);
  if (loss > 0) s.link_from(Side::a).add<sim::BernoulliLoss>(loss, s.seed_for(9));
  s.link_from(Side::a).add<sim::Delay>(25ms);
  s.link_from(Side::b).add<sim::Bottleneck>(kRate, 28, kQueue);
  s.link_from(Side::b).add<sim::Delay>(25ms);
  UdtTunnelSettings ta = tunnel(TunnelRole::caller, kB, s.seed_for(1));
  UdtTunnelSettings tb = tunnel(TunnelRole::listener, kA, s.seed_for(2));
  ta.conn.congestion_control = tb.conn.congestion_control = cc;
  s.set_core(Side::a, std::make_unique<UdtTunnelCore>(ta));
  s.set_core(Side::b, std::make_unique<UdtTunnelCore>(tb));
  s.set_source(Side::a, std::make_unique<sim::BulkSource>(kPacket, 1));
  s.run_for(10s);
  const auto b0 = s.ep(Side::b).sink.bytes();
  const auto d0 = bottleneck.dropped(), n0 = bottleneck.seen();
  const TimePoint t0 = s.now();
  s.run_for(20s);
  Outcome o;
  o.utilisation = sim::goodput_bps(b0, t0, s.ep(Side::b).sink.bytes(), s.now()) / kPacket * kWireBytes / kRate;
  o.queue_drops = bottleneck.dropped() - d0;
  o.queue_seen = bottleneck.seen() - n0;
  o.max_queue = bottleneck.max_occupancy();
  o.retransmitted = stat(s.core_as<UdtTunnelCore>(Side::a), "packets_retransmitted");
  std::printf("[udt-sim] seed %llu, %s, loss %.3f: utilisation %.3f, bottleneck drops %llu of %llu, max queue %zu/%zu, "
              "retransmitted %.0f\n",
              static_cast<unsigned long long>(seed), cc == CcKind::bbr ? "bbr" : "udt4", loss, o.utilisation,
              static_cast<unsigned long long>(o.queue_drops), static_cast<unsigned long long>(o.queue_seen), o.max_queue, kQueue, o.retransmitted);
  EXPECT_EQ(s.ep(Side::b).sink.errors(), 0u) << s.ep(Side::b).sink.first_error();
  return o;
}

// The queue is not kept full: at most 0.5 % of the packets are dropped at the bottleneck (a
// loss-driven controller fills it until it drops).
void expect_short_queue(const Outcome& o) {
  EXPECT_LE(static_cast<double>(o.queue_drops), 0.005 * static_cast<double>(o.queue_seen));
}

TEST(UdtBbrSim, FillsTheLinkWithoutFillingItsQueue) {
  const Outcome bbr = run(CcKind::bbr, 0, 9101);
  run(CcKind::udt4, 0, 9101);  // for comparison
  EXPECT_GE(bbr.utilisation, 0.95);  // measured 0.987
  expect_short_queue(bbr);
}

TEST(UdtBbrSim, RandomLossIsNotReadAsCongestion) {
  const double loss = 0.01;
  const Outcome bbr = run(CcKind::bbr, loss, 9102);
  const Outcome udt4 = run(CcKind::udt4, loss, 9102);
  EXPECT_GE(bbr.utilisation, 0.93 * (1 - loss));  // measured 0.974
  EXPECT_GE(bbr.utilisation, 5 * udt4.utilisation);
  expect_short_queue(bbr);
}

// At 5 % a retransmission is itself lost now and then and waits for the receiver's periodic NAK;
// the window (bbr_cc.h) then runs out for a while. Measured 0.78 (0.82 of 1 - e).
TEST(UdtBbrSim, FivePercentLossStillUsesMostOfTheLink) {
  const double loss = 0.05;
  const Outcome bbr = run(CcKind::bbr, loss, 9103);
  const Outcome udt4 = run(CcKind::udt4, loss, 9103);
  EXPECT_GE(bbr.utilisation, 0.72);
  EXPECT_GE(bbr.utilisation, 5 * udt4.utilisation);
  expect_short_queue(bbr);
}

}  // namespace
}  // namespace ncgw::udt
