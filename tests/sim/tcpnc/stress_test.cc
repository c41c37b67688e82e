// Randomised harsh conditions over many seeds (each printed): bursty loss on both directions,
// reordering, duplication, varying packet sizes and a small CWND_max. Whatever happens, every
// packet must arrive exactly once and in order, within a generous virtual-time limit.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "tests/sim/tcpnc/harness.h"

namespace ncgw::tcpnc::simtest {
namespace {

// Randomly drawn harsh conditions: bursty loss, reordering and duplication on the data direction
// (installed into the scenario), and loss on the ACK direction (applied by the caller).
struct Harsh {
  double e, burst, ack_loss, reorder, dup;
  // Draws the conditions from `pick` and installs the data-direction elements into `sc`.
  Harsh(transport::Rng& pick, Scenario& sc)
      : e(0.25 * pick.uniform()), burst(1.0 + 4.0 * pick.uniform()), ack_loss(0.2 * pick.uniform()),
        reorder(0.1 * pick.uniform()), dup(0.05 * pick.uniform()) {
    const double le = e, lb = burst, lr = reorder, ld = dup;
    sc.data_loss = [=](Simulation& sim, sim::Link& l) {
      l.add_element(sim::GilbertElliottLoss::from_rate_and_burst(le, lb, sim.seed_for(81)));
      l.add<sim::Reorder>(lr, 3ms, sim.seed_for(82));
      l.set_duplication(ld, 2ms, sim.seed_for(83));
    };
  }
};

TEST(TcpncStress, ExactlyOnceUnderRandomHarshConditions) {
  constexpr std::uint64_t kPackets = 1500;
  // NCGW_STRESS_SEEDS=N runs N seeds instead of 16 (for soak runs outside ctest).
  const char* env = std::getenv("NCGW_STRESS_SEEDS");
  const std::uint64_t seeds = env ? std::strtoull(env, nullptr, 10) : 16;
  for (std::uint64_t seed = 9000; seed < 9000 + seeds; ++seed) {
    transport::Rng pick(seed);
    Scenario sc;
    sc.settings.cwnd_max_packets = 8 + static_cast<std::uint32_t>(pick.below(120));
    sc.settings.n_min = 1 + static_cast<std::uint32_t>(pick.below(4));
    sc.settings.n_max = sc.settings.n_min + static_cast<std::uint32_t>(pick.below(60));
    sc.settings.k_max = 1 + static_cast<std::uint32_t>(pick.below(24));
    const CcAlgorithm algos[] = {CcAlgorithm::kNewReno, CcAlgorithm::kCubic, CcAlgorithm::kBbr};
    sc.settings.congestion_control = algos[pick.below(3)];
    sc.packet_bytes = 40 + pick.below(1300);
    sc.settings.dead_peer_ms = 60000;  // sessions must survive: resets are tested elsewhere
    const Harsh h(pick, sc);
    const double e = h.e, burst = h.burst, ack_loss = h.ack_loss, reorder = h.reorder, dup = h.dup;
    std::printf("[tcpnc-stress] seed=%llu cc=%d cwnd_max=%u n=[%u,%u] k_max=%u size=%zu e=%.3f burst=%.2f "
                "ack_loss=%.3f reorder=%.3f dup=%.3f\n",
                (unsigned long long)seed, static_cast<int>(sc.settings.congestion_control), sc.settings.cwnd_max_packets, sc.settings.n_min, sc.settings.n_max,
                sc.settings.k_max, sc.packet_bytes, e, burst, ack_loss, reorder, dup);
    auto sim = build(sc, seed, kPackets);
    sim->link_from(Side::b).add<sim::BernoulliLoss>(ack_loss, sim->seed_for(84));
    const sim::Sink& sink = sim->ep(Side::b).sink;
    EXPECT_TRUE(sim->run_until([&] { return sink.packets() >= kPackets; }, sim->now() + 120s))
        << "seed " << seed << ": delivered " << sink.packets();
    EXPECT_EQ(sink.packets(), kPackets) << "seed " << seed;
    EXPECT_EQ(sink.errors(), 0u) << "seed " << seed << ": " << sink.first_error();
    for (Side s : {Side::a, Side::b}) {
      EXPECT_EQ(stat(*sim->ep(s).core, "session_resets"), 0.0) << "seed " << seed;
      EXPECT_EQ(stat(*sim->ep(s).core, "peer_restarts"), 0.0) << "seed " << seed;
    }
    if (sink.errors() != 0 || sink.packets() != kPackets) {  // dump both cores for the log
      for (Side s : {Side::a, Side::b})
        for (const auto& st : sim->ep(s).core->stats())
          std::printf("  %s %s = %g\n", s == Side::a ? "A" : "B", st.name.c_str(), st.value);
    }
  }
}

// The defaults (model-based controller, automatic sizing with CoDel at the entrance) under the same
// harsh conditions: every packet the source got accepted is delivered exactly once and in order, or
// was dropped by the entrance AQM and counted; nothing else goes missing.
TEST(TcpncStress, DefaultsDeliverOrCountEveryAcceptedPacket) {
  constexpr std::uint64_t kPackets = 1500;
  for (std::uint64_t seed = 9500; seed < 9508; ++seed) {
    transport::Rng pick(seed);
    Scenario sc;
    sc.settings = TcpncCoreSettings{};
    sc.settings.dead_peer_ms = 60000;
    sc.packet_bytes = 40 + pick.below(1300);
    const Harsh h(pick, sc);
    const double e = h.e, burst = h.burst, ack_loss = h.ack_loss, reorder = h.reorder, dup = h.dup;
    std::printf("[tcpnc-stress-defaults] seed=%llu size=%zu e=%.3f burst=%.2f ack_loss=%.3f reorder=%.3f dup=%.3f\n",
                (unsigned long long)seed, sc.packet_bytes, e, burst, ack_loss, reorder, dup);
    auto sim = build(sc, seed, kPackets);
    sim->link_from(Side::b).add<sim::BernoulliLoss>(ack_loss, sim->seed_for(84));
    sim::Sink& sink = sim->ep(Side::b).sink;
    sink.set_allow_gaps(true);
    const transport::Core& a = *sim->ep(Side::a).core;
    auto accounted = [&] { return sink.packets() + static_cast<std::uint64_t>(stat(a, "aqm_drops")); };
    EXPECT_TRUE(sim->run_until([&] { return accounted() >= kPackets; }, sim->now() + 120s))
        << "seed " << seed << ": delivered " << sink.packets() << ", aqm drops " << stat(a, "aqm_drops");
    EXPECT_EQ(accounted(), kPackets) << "seed " << seed;
    EXPECT_EQ(sink.errors(), 0u) << "seed " << seed << ": " << sink.first_error();
    EXPECT_EQ(sink.expected(), kPackets) << "seed " << seed << ": the last packet arrived";
  }
}

TEST(TcpncStress, RandomRestartsNeverDuplicateOrReorder) {
  const char* env = std::getenv("NCGW_STRESS_SEEDS");
  const std::uint64_t seeds = env ? std::strtoull(env, nullptr, 10) : 8;
  for (std::uint64_t seed = 9500; seed < 9500 + seeds; ++seed) {
    std::printf("[tcpnc-restart-stress] seed=%llu\n", (unsigned long long)seed);
    transport::Rng pick(seed);
    Scenario sc;
    sc.settings.dead_peer_ms = 2000;
    sc.data_loss = [](Simulation& sim, sim::Link& l) { l.add<sim::BernoulliLoss>(0.05, sim.seed_for(91)); };
    auto sim = build(sc, seed);
    sim::Sink& sink = sim->ep(Side::b).sink;
    sink.set_allow_gaps(true);  // a restart loses what the dead side held; never duplicates
    std::uint32_t stream = 1;
    for (int round = 0; round < 6; ++round) {
      sim->run_for(std::chrono::milliseconds(100 + pick.below(2000)));
      const auto what = pick.below(3);
      if (what == 0) {  // sender gateway restarts, its end hosts start a new stream
        sim->set_core(Side::a, std::make_unique<TcpncCore>(sc.settings, sim->seed_for(1000 + round)));
        sim->set_source(Side::a, std::make_unique<sim::BulkSource>(sc.packet_bytes, ++stream, 0));
      } else if (what == 1) {  // receiver gateway restarts
        sim->set_core(Side::b, std::make_unique<TcpncCore>(sc.settings, sim->seed_for(2000 + round)));
      } else {  // receiver hangs for a while (maybe past dead-peer detection)
        sim->set_up(Side::b, false);
        sim->run_for(std::chrono::milliseconds(pick.below(4000)));
        sim->set_up(Side::b, true);
      }
      const auto before = sink.packets();
      EXPECT_TRUE(sim->run_until([&] { return sink.packets() > before + 500; }, sim->now() + 10s))
          << "seed " << seed << " round " << round << ": no recovery";
    }
    EXPECT_EQ(sink.errors(), 0u) << "seed " << seed << ": " << sink.first_error();
  }
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
