// ACKs describe every open coding window: with many small CWs open behind a stalled one, a CW far
// beyond index 32 of the ACK's CW list that received a dependent combination is still seen as
// missing a DoF and repaired at once (before, the list stopped at 32 CWs and the sender counted the
// dependent combination as a received DoF until the stalled CW was decoded).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "coding/header.h"
#include "tests/sim/tcpnc/harness.h"
#include "transports/common/byte_order.h"

namespace ncgw::tcpnc::simtest {
namespace {

constexpr std::uint64_t kPackets = 3000;
constexpr std::uint32_t kStalled = 100;          // CW whose combinations are all lost for a while
constexpr std::uint32_t kFar = kStalled + 34;    // CW with a dependent combination (list index 34)
constexpr auto kStall = 600ms;                   // how long every combination of kStalled is lost

// What the data link saw, shared with the test body.
struct Observed {
  TimePoint stalled_first{};
  bool stalled_seen = false;
  std::vector<std::uint8_t> far_source0;  // payload of source 0 of kFar
  int far_rewritten = 0;                  // planned repairs of kFar rewritten into copies of it
  int far_seeded_after = 0;               // kFar repairs sent after the rewritten one
  std::uint64_t sink_at_far_retx = UINT64_MAX;  // B's delivered packets when kFar's first retx left
};

// Rewrites a seeded repair datagram into an explicit combination equal to `source0` (dependent).
void rewrite_as_copy(std::vector<std::uint8_t>& d, const DataInfo& info, const std::vector<std::uint8_t>& source0) {
  coding::CodingHeader h = info.coding;
  h.kind = coding::Kind::kExplicit;
  h.coefs.fill(0);
  h.coefs[0] = 1;
  const std::size_t symbol = info.payload.size();
  std::vector<std::uint8_t> out(d.begin(), d.begin() + static_cast<long>(kDataHeaderSize));
  out.resize(kDataHeaderSize + coding::kMaxHeaderSize + symbol, 0);
  const std::size_t hl = coding::write_header(h, std::span<std::uint8_t>(out).subspan(kDataHeaderSize));
  std::uint8_t* p = out.data() + kDataHeaderSize + hl;
  transport::put_be16(p, static_cast<std::uint16_t>(source0.size()));
  std::copy(source0.begin(), source0.end(), p + 2);
  out.resize(kDataHeaderSize + hl + symbol);
  d = std::move(out);
}

// Small CWs (n = 4, k = 1) and CWND_max 200 on a 100 Mbit/s, 200 ms RTT path: cwnd holds about 40
// CWs, and coding_windows() lets 53 be open. kStalled loses everything for kStall; kFar, 34 CWs
// later, loses source 2 and its planned repair arrives as a copy of source 0.
Scenario many_cws_scenario(std::shared_ptr<Observed> o) {
  Scenario sc;
  sc.rate_bps = 100e6;
  sc.one_way = 100ms;
  sc.settings.cwnd_max_packets = 200;
  sc.settings.n_min = 4;
  sc.settings.fixed_n = 4;
  sc.settings.fixed_k = 1;
  sc.data_loss = [o](Simulation& sim, sim::Link& l) {
    l.add<sim::DropIf>([o, &sim](std::span<const std::uint8_t> d, std::uint64_t, TimePoint at) {
      const auto info = data_info(d);
      if (!info) return false;
      if (info->coding.cw_id == kStalled) {
        if (!o->stalled_seen) { o->stalled_seen = true; o->stalled_first = at; }
        return at < o->stalled_first + kStall;
      }
      if (info->coding.cw_id != kFar) return false;
      if (info->coding.kind == coding::Kind::kSource) return info->coding.index == 2;  // sent once
      if (info->coding.kind == coding::Kind::kSeeded && o->far_rewritten > 0 && o->far_seeded_after++ == 0)
        o->sink_at_far_retx = sim.ep(Side::b).sink.packets();
      return false;
    });
    l.set_mutator([o](std::vector<std::uint8_t>& d, std::uint64_t) {
      const auto info = data_info(d);
      if (!info || info->coding.cw_id != kFar) return;
      if (info->coding.kind == coding::Kind::kSource && info->coding.index == 0 && o->far_source0.empty()) {
        o->far_source0.assign(info->payload.begin(), info->payload.end());
        return;
      }
      if (info->coding.kind != coding::Kind::kSeeded || o->far_rewritten > 0 || o->far_source0.empty()) return;
      ++o->far_rewritten;
      rewrite_as_copy(d, *info, o->far_source0);
    });
  };
  return sc;
}

TEST(TcpncAckCws, DependentCombinationBeyondIndex32IsRepairedWhileAnOlderCwStalls) {
  const std::uint64_t seed = 6101;
  auto o = std::make_shared<Observed>();
  const Scenario sc = many_cws_scenario(o);
  ASSERT_GT(coding_windows(sc.settings), kFar - kStalled + 1);
  auto sim = build(sc, seed, kPackets);
  std::size_t max_ack = 0, max_cws = 0;  // largest ACK, most CW entries in one ACK
  sim->link_from(Side::b).add<sim::DropIf>([&](std::span<const std::uint8_t> d, std::uint64_t, TimePoint) {
    const auto h = parse_common(d);
    if (!h || h->type != PacketType::kAck) return false;
    max_ack = std::max(max_ack, d.size());
    if (const auto a = parse_ack(d)) max_cws = std::max<std::size_t>(max_cws, a->cw_count);
    return false;
  });
  const sim::Sink& sink = sim->ep(Side::b).sink;
  EXPECT_TRUE(sim->run_until([&] { return sink.packets() >= kPackets; }, sim->now() + 30s));
  const auto& a = *sim->ep(Side::a).core;
  const std::uint64_t stalled_first_source = std::uint64_t{kStalled} * 4;
  std::printf("[tcpnc-ack-cws] seed=%llu far CW %u (list index %u): B had delivered %llu packets when its first "
              "retransmission left (CW %u starts at source %llu); largest ACK %zu bytes, most CWs listed %zu; "
              "dependent_received=%g retx=%g congestion_cws=%g\n",
              (unsigned long long)seed, kFar, kFar - kStalled, (unsigned long long)o->sink_at_far_retx, kStalled,
              (unsigned long long)stalled_first_source, max_ack, max_cws, stat(*sim->ep(Side::b).core, "dependent_received"),
              stat(a, "retransmissions"), stat(a, "congestion_cws"));
  ASSERT_EQ(o->far_rewritten, 1);
  EXPECT_GE(stat(*sim->ep(Side::b).core, "dependent_received"), 1.0);
  // The far CW's DoF deficit was known from the ACK's list while the stalled CW was still
  // undecoded at B (nothing from it delivered), not only after the stall ended.
  EXPECT_LE(o->sink_at_far_retx, stalled_first_source);
  EXPECT_GT(max_cws, kFar - kStalled);  // the list reached the far CW
  EXPECT_GE(stat(a, "congestion_cws"), 2.0);  // the stalled and the far CW (the far one was missed before)
  EXPECT_EQ(sink.packets(), kPackets);
  EXPECT_EQ(sink.errors(), 0u) << sink.first_error();
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
