// Exact loss patterns and awkward deliveries: a whole CW lost, a burst longer than k, dependent
// and duplicate combinations, reordering, ACK loss, CUBIC, and redundancy falling once loss stops.
// Every case checks exactly-once in-order delivery of a bounded stream.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "coding/header.h"
#include "tests/sim/tcpnc/harness.h"
#include "transports/common/byte_order.h"

namespace ncgw::tcpnc::simtest {
namespace {

constexpr std::uint64_t kPackets = 3000;

// Settings with a fixed (n, k), so CW boundaries and indexes are known to the test.
Scenario fixed_scenario(unsigned n, unsigned k) {
  Scenario sc;
  sc.settings.fixed_n = n;
  sc.settings.fixed_k = k;
  return sc;
}

// Runs until all kPackets arrived (or 30 s of virtual time); checks delivery exactly once.
void expect_all_delivered(Simulation& sim) {
  const sim::Sink& sink = sim.ep(Side::b).sink;
  EXPECT_TRUE(sim.run_until([&] { return sink.packets() >= kPackets; }, sim.now() + 30s))
      << "delivered " << sink.packets() << " of " << kPackets;
  EXPECT_EQ(sink.packets(), kPackets);
  EXPECT_EQ(sink.errors(), 0u) << sink.first_error();
}

TEST(TcpncPatterns, WholeCodingWindowLost) {
  Scenario sc = fixed_scenario(16, 4);
  auto dropped = std::make_shared<int>(0);
  sc.data_loss = [dropped](Simulation&, sim::Link& l) {
    l.add<sim::DropIf>([dropped](std::span<const std::uint8_t> d, std::uint64_t, TimePoint) {
      const auto info = data_info(d);
      if (!info || info->coding.cw_id != 5 || *dropped >= 20) return false;
      ++*dropped;  // all n + k planned combinations of CW 5
      return true;
    });
  };
  auto sim = build(sc, 6001, kPackets);
  expect_all_delivered(*sim);
  const auto& a = *sim->ep(Side::a).core;
  EXPECT_EQ(*dropped, 20);
  EXPECT_GE(stat(a, "retransmissions"), 16.0);
  EXPECT_GE(stat(a, "congestion_cws"), 1.0);
}

TEST(TcpncPatterns, BurstLongerThanK) {
  Scenario sc = fixed_scenario(16, 4);
  sc.data_loss = [](Simulation&, sim::Link& l) {
    l.add<sim::DropIf>([](std::span<const std::uint8_t> d, std::uint64_t, TimePoint) {
      const auto info = data_info(d);
      return info && info->tx >= 300 && info->tx < 310;  // 10 consecutive transmissions, k = 4
    });
  };
  auto sim = build(sc, 6002, kPackets);
  expect_all_delivered(*sim);
  EXPECT_GE(stat(*sim->ep(Side::a).core, "retransmissions"), 6.0);
}

TEST(TcpncPatterns, LossesWithinKNeedNoRetransmission) {
  Scenario sc = fixed_scenario(16, 4);
  sc.data_loss = [](Simulation&, sim::Link& l) {
    l.add<sim::DropIf>([](std::span<const std::uint8_t> d, std::uint64_t, TimePoint) {
      const auto info = data_info(d);  // sources 1, 5, 9, 13 of every CW: exactly k per CW
      return info && info->coding.kind == coding::Kind::kSource && info->coding.index % 4 == 1;
    });
  };
  auto sim = build(sc, 6003, kPackets);
  expect_all_delivered(*sim);
  const auto& a = *sim->ep(Side::a).core;
  EXPECT_EQ(stat(a, "retransmissions"), 0.0);
  EXPECT_EQ(stat(a, "congestion_events"), 0.0);  // covered losses are not congestion
  EXPECT_GT(stat(a, "cwnd"), 60.0);
}

TEST(TcpncPatterns, DependentCombinationsCountAsMissing) {
  Scenario sc = fixed_scenario(8, 2);
  sc.data_loss = [](Simulation&, sim::Link& l) {
    // Source 2 of CW 3 is lost ...
    l.add<sim::DropIf>([](std::span<const std::uint8_t> d, std::uint64_t, TimePoint) {
      const auto info = data_info(d);
      return info && info->coding.cw_id == 3 && info->coding.kind == coding::Kind::kSource && info->coding.index == 2;
    });
    // ... and both planned repairs of CW 3 are rewritten into copies of source 0 (which arrived):
    // linearly dependent combinations that bring no DoF.
    auto source0 = std::make_shared<std::vector<std::uint8_t>>();
    auto rewritten = std::make_shared<int>(0);
    l.set_mutator([source0, rewritten](std::vector<std::uint8_t>& d, std::uint64_t) {
      const auto info = data_info(d);
      if (!info || info->coding.cw_id != 3) return;
      if (info->coding.kind == coding::Kind::kSource && info->coding.index == 0) {
        source0->assign(info->payload.begin(), info->payload.end());
        return;
      }
      if (info->coding.kind != coding::Kind::kSeeded || *rewritten >= 2 || source0->empty()) return;
      ++*rewritten;
      coding::CodingHeader h = info->coding;
      h.kind = coding::Kind::kExplicit;
      h.coefs.fill(0);
      h.coefs[0] = 1;
      const std::size_t symbol = info->payload.size();
      std::vector<std::uint8_t> out(d.begin(), d.begin() + static_cast<long>(kDataHeaderSize));
      out.resize(kDataHeaderSize + coding::kMaxHeaderSize + symbol, 0);
      const std::size_t hl = coding::write_header(h, std::span<std::uint8_t>(out).subspan(kDataHeaderSize));
      std::uint8_t* p = out.data() + kDataHeaderSize + hl;
      transport::put_be16(p, static_cast<std::uint16_t>(source0->size()));
      std::copy(source0->begin(), source0->end(), p + 2);
      out.resize(kDataHeaderSize + hl + symbol);
      d = std::move(out);
    });
  };
  auto sim = build(sc, 6004, kPackets);
  expect_all_delivered(*sim);
  EXPECT_GE(stat(*sim->ep(Side::b).core, "dependent_received"), 2.0);
  EXPECT_GE(stat(*sim->ep(Side::a).core, "retransmissions"), 1.0);
}

TEST(TcpncPatterns, DuplicatedDatagramsDeliverOnce) {
  Scenario sc;
  sc.data_loss = [](Simulation& sim, sim::Link& l) {
    l.add<sim::BernoulliLoss>(0.05, sim.seed_for(31));
    l.set_duplication(0.1, 3ms, sim.seed_for(32));
  };
  auto sim = build(sc, 6005, kPackets);
  sim->link_from(Side::b).set_duplication(0.1, 1ms, sim->seed_for(33));  // duplicated ACKs too
  expect_all_delivered(*sim);
  EXPECT_GT(stat(*sim->ep(Side::b).core, "duplicate_received"), 100.0);
}

TEST(TcpncPatterns, ReorderingAndAckLoss) {
  Scenario sc;
  sc.data_loss = [](Simulation& sim, sim::Link& l) {
    l.add<sim::BernoulliLoss>(0.03, sim.seed_for(41));
    l.add<sim::Reorder>(0.05, 4ms, sim.seed_for(42));
  };
  auto sim = build(sc, 6006, kPackets);
  sim->link_from(Side::b).add<sim::BernoulliLoss>(0.1, sim->seed_for(43));  // 10% of ACKs lost
  expect_all_delivered(*sim);
}

TEST(TcpncPatterns, CubicAtFivePercent) {
  Scenario sc;
  sc.settings.congestion_control = CcAlgorithm::kCubic;
  sc.data_loss = [](Simulation& sim, sim::Link& l) { l.add<sim::BernoulliLoss>(0.05, sim.seed_for(51)); };
  auto sim = build(sc, 6007);
  const BulkResult r = run_bulk(*sim, 3s, 10s);
  std::printf("[tcpnc-cubic] goodput=%.3f Mbit/s cwnd=%g\n", r.goodput_bps / 1e6, stat(*sim->ep(Side::a).core, "cwnd"));
  EXPECT_EQ(r.errors, 0u) << r.first_error;
  EXPECT_GT(r.goodput_bps, 0.8 * 0.95 * 9.0e6);
}

TEST(TcpncPatterns, RedundancyFallsWhenLossStops) {
  Scenario sc;
  sc.data_loss = [](Simulation& sim, sim::Link& l) {
    auto rng = std::make_shared<transport::Rng>(sim.seed_for(61));
    l.add<sim::DropIf>([rng](std::span<const std::uint8_t>, std::uint64_t, TimePoint at) {
      return at < transport::time_from_ns(8'000'000'000) && rng->bernoulli(0.10);
    });
  };
  auto sim = build(sc, 6008);
  sim->run_for(8s);
  const auto& a = *sim->ep(Side::a).core;
  const double k_lossy = stat(a, "k");
  sim->run_for(6s);  // the short-window estimate forgets the loss
  const double s0 = stat(a, "sources_sent"), c0 = stat(a, "combinations_sent");
  sim->run_for(4s);
  const double extra = (stat(a, "combinations_sent") - c0) / (stat(a, "sources_sent") - s0) - 1.0;
  std::printf("[tcpnc-redundancy] k while lossy=%g, after: n=%g k=%g R=%g measured extra=%.4f\n", k_lossy,
              stat(a, "n"), stat(a, "k"), stat(a, "R"), extra);
  EXPECT_GE(k_lossy, 4.0);
  EXPECT_LE(stat(a, "R"), 1.05);
  EXPECT_LE(extra, 0.05);
  EXPECT_EQ(sim->ep(Side::b).sink.errors(), 0u);
}

TEST(TcpncPatterns, TransmissionNumbersCrossThe24BitWireWrap) {
  Scenario sc;
  sc.settings.initial_tx = (std::uint64_t{1} << kDataTxBits) - 2000;  // the wire carries the low 24 bits
  sc.data_loss = [](Simulation& sim, sim::Link& l) {
    l.add<sim::BernoulliLoss>(0.05, sim.seed_for(75));
    l.add<sim::Reorder>(0.02, 3ms, sim.seed_for(76));
  };
  auto sim = build(sc, 6010, kPackets);
  expect_all_delivered(*sim);
  const auto& a = *sim->ep(Side::a).core;
  EXPECT_GT(stat(a, "combinations_sent"), 2000.0);  // so the last ones are past 2^24
  EXPECT_NEAR(stat(a, "loss_rate_long"), 0.05, 0.02);  // arrivals were matched to the right records
  EXPECT_EQ(stat(a, "rto_count"), 0.0);
}

TEST(TcpncPatterns, BothDirectionsCarryBulkIndependently) {
  Scenario sc;
  sc.data_loss = [](Simulation& sim, sim::Link& l) { l.add<sim::BernoulliLoss>(0.05, sim.seed_for(71)); };
  auto sim = build(sc, 6009, kPackets);
  sim->link_from(Side::b).add<sim::BernoulliLoss>(0.05, sim->seed_for(72));
  sim->set_source(Side::b, std::make_unique<sim::BulkSource>(800, 7, kPackets));
  const sim::Sink& at_a = sim->ep(Side::a).sink;
  const sim::Sink& at_b = sim->ep(Side::b).sink;
  EXPECT_TRUE(sim->run_until([&] { return at_a.packets() >= kPackets && at_b.packets() >= kPackets; }, sim->now() + 30s));
  EXPECT_EQ(at_a.packets(), kPackets);
  EXPECT_EQ(at_b.packets(), kPackets);
  EXPECT_EQ(at_a.errors() + at_b.errors(), 0u) << at_a.first_error() << at_b.first_error();
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
