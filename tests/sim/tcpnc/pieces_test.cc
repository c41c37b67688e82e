// Forms in pieces through whole TCP/NC sessions: with header compression the TUN MTU assumes a bulk
// TCP segment's header travels compressed. Such segments at that MTU go as one source each (only
// the contexts' full headers need two), packets that do not compress go in two, a SYN's MSS is
// clamped to what fits one source, and a peer that cannot join pieces gets packets that fit one
// source. Everything arrives exactly once, in order, byte for byte, over a lossy link.
#include <gtest/gtest.h>

#include <vector>

#include "tests/sim/tcpnc/harness.h"
#include "transports/common/byte_order.h"
#include "transports/common/inet_checksum.h"
#include "transports/common/tcp_mss.h"

namespace ncgw::tcpnc::simtest {
namespace {

using Bytes = std::vector<std::uint8_t>;
using transport::put_be16;
using transport::put_be32;

// The i-th packet of a bulk TCP/IPv4 flow with timestamps, `size` bytes; a SYN with MSS 1460 first.
Bytes tcp_packet(std::uint64_t i, std::size_t size) {
  const bool syn = i == 0;
  const std::size_t tcp = syn ? 40 : 32;
  Bytes p(syn ? 20 + tcp : size);
  std::uint8_t* h = p.data();
  h[0] = 0x45;
  put_be16(h + 2, static_cast<std::uint16_t>(p.size()));
  put_be16(h + 4, static_cast<std::uint16_t>(i));
  h[6] = 0x40, h[8] = 64, h[9] = 6;
  h[12] = 10, h[15] = 1, h[16] = 10, h[19] = 2;
  put_be16(h + 10, transport::checksum_finish(transport::checksum_add(0, std::span(p).first(20))));
  std::uint8_t* t = h + 20;
  put_be16(t, 40000);
  put_be16(t + 2, 80);
  put_be32(t + 4, static_cast<std::uint32_t>(1000 + i * (size - 52)));
  t[12] = static_cast<std::uint8_t>(tcp / 4 << 4);
  t[13] = syn ? 0x02 : 0x10;
  put_be16(t + 14, 501);
  put_be16(t + 16, static_cast<std::uint16_t>(i * 2654435761u >> 16));
  const std::uint8_t ts_opts[] = {1, 1, 8, 10};
  const std::uint8_t syn_opts[] = {2, 4, 0x05, 0xB4, 4, 2, 8, 10};
  if (syn) std::copy_n(syn_opts, 8, t + 20);
  else std::copy_n(ts_opts, 4, t + 20);
  put_be32(t + (syn ? 28 : 24), static_cast<std::uint32_t>(i / 4));
  for (std::size_t k = 20 + tcp; k < p.size(); ++k) p[k] = static_cast<std::uint8_t>(k * 31 + i);
  return p;
}

// Offers the flow's packets while fewer than a window of them (about the path's BDP) are
// undelivered: a window-limited end host, whose packets the tunnel's entrance never has to drop.
class TcpFlowSource : public sim::Source {
 public:
  TcpFlowSource(std::uint64_t limit, const std::uint64_t& delivered) : limit_(limit), delivered_(delivered) {}
  void pump(transport::Core& core, transport::TimePoint now) override {
    while (next_ < limit_ && next_ < delivered_ + 20) {
      if (core.send(tcp_packet(next_, core.max_payload()), now) != transport::SendResult::accepted) return;
      ++next_;
    }
  }

 private:
  std::uint64_t limit_;
  const std::uint64_t& delivered_;
  std::uint64_t next_ = 0;
};

// A 10 Mbit/s, 20 ms RTT path with 2 % random loss on the data direction, default settings.
std::unique_ptr<Simulation> lossy_path(const TcpncCoreSettings& a, const TcpncCoreSettings& b, std::uint64_t seed) {
  Scenario sc;
  sc.settings = a;
  sc.data_loss = [](Simulation& sim, sim::Link& l) { l.add<sim::BernoulliLoss>(0.02, sim.seed_for(31)); };
  auto sim = build(sc, seed);
  sim->set_core(Side::b, std::make_unique<TcpncCore>(b, sim->seed_for(12)));
  return sim;
}

TEST(TcpncPieces, BulkTcpAtTheTunMtuTakesOneSourceEachAndArrivesExact) {
  constexpr std::uint64_t kPackets = 3000;
  auto sim = lossy_path(TcpncCoreSettings{}, TcpncCoreSettings{}, 7101);
  auto& a = sim->core_as<TcpncCore>(Side::a);
  const std::size_t mtu = a.max_payload();
  EXPECT_EQ(mtu, max_symbol_for(TcpncCoreSettings{}) - kHcBulkFormHead + kHcBulkTcpHeader);
  std::uint64_t got = 0, wrong = 0, next = 0;  // packets delivered, not as sent, next index due
  sim->set_source(Side::a, std::make_unique<TcpFlowSource>(kPackets, next));
  sim->ep(Side::b).on_deliver = [&](std::span<const std::uint8_t> p) {
    // The packet's index from its sequence number; a gap is a packet the entrance's AQM dropped.
    const std::uint64_t i = p.size() < 40 || (p[33] & 0x02) ? 0 : (transport::get_be32(p.data() + 24) - 1000) / (mtu - 52);
    if (i < next) ++wrong;
    next = i + 1;
    Bytes expected = tcp_packet(i, mtu);
    if (i == 0) {  // the SYN: its MSS clamped to what one source carries compressed
      EXPECT_EQ(transport::syn_mss(p), clamped_mss(max_symbol_for(TcpncCoreSettings{})));
      transport::clamp_syn_mss(expected, clamped_mss(max_symbol_for(TcpncCoreSettings{})));
    }
    if (!std::equal(p.begin(), p.end(), expected.begin(), expected.end())) ++wrong;
    ++got;
  };
  ASSERT_TRUE(sim->run_until([&] { return next == kPackets; }, transport::time_from_ns(30'000'000'000)));
  auto& b = sim->core_as<TcpncCore>(Side::b);
  EXPECT_EQ(wrong, 0u);
  EXPECT_GE(static_cast<double>(got), kPackets - stat(a, "aqm_drops"));
  EXPECT_EQ(stat(a, "form_pieces"), 1.0);
  EXPECT_EQ(stat(a, "mss_clamped"), 1.0);
  // Only the full headers (the flow's first packet and a refresh every 64) needed two sources.
  EXPECT_GT(stat(a, "forms_split"), 0.0);
  EXPECT_LE(stat(a, "forms_split"), stat(a, "headers_full"));
  EXPECT_EQ(stat(b, "forms_joined"), stat(a, "forms_split"));
  EXPECT_EQ(stat(b, "form_pieces_dropped"), 0.0);
  EXPECT_LE(stat(a, "sources_sent"), kPackets * 1.02);
}

TEST(TcpncPieces, PacketsThatDoNotCompressGoInTwoSources) {
  constexpr std::uint64_t kPackets = 2000;
  auto sim = lossy_path(TcpncCoreSettings{}, TcpncCoreSettings{}, 7102);
  auto& a = sim->core_as<TcpncCore>(Side::a);
  sim::Sink& sink = sim->ep(Side::b).sink;
  sink.set_allow_gaps(true);  // the entrance's AQM may drop a packet (counted)
  sim->set_source(Side::a, std::make_unique<sim::WindowSource>(a.max_payload(), 1, 20, [&] { return sink.expected(); }));
  ASSERT_TRUE(sim->run_until([&] { return sink.expected() >= kPackets; }, transport::time_from_ns(30'000'000'000)));
  EXPECT_EQ(sink.errors(), 0u) << sink.first_error();
  EXPECT_LE(static_cast<double>(sink.gaps()), stat(a, "aqm_drops"));
  // Every packet went as exactly two pieces (the run may stop between a form's two) and every
  // delivered one was joined from them.
  EXPECT_LE(stat(a, "form_pieces_sent"), 2 * stat(a, "forms_split"));
  EXPECT_GE(stat(a, "form_pieces_sent"), 2 * stat(a, "forms_split") - 1);
  EXPECT_EQ(stat(a, "sources_sent"), stat(a, "form_pieces_sent"));
  EXPECT_EQ(stat(sim->core_as<TcpncCore>(Side::b), "forms_joined"), static_cast<double>(sink.packets()));
}

TEST(TcpncPieces, APeerWithoutHeaderCompressionGetsPacketsThatFitOneSource) {
  TcpncCoreSettings off;
  off.header_compression = false;
  auto sim = lossy_path(TcpncCoreSettings{}, off, 7103);
  auto& a = sim->core_as<TcpncCore>(Side::a);
  const std::size_t configured = a.max_payload();
  ASSERT_TRUE(sim->run_until([&] { return a.established(); }, transport::time_from_ns(1'000'000'000)));
  EXPECT_EQ(a.max_payload(), max_symbol_for(off));
  EXPECT_LT(a.max_payload(), configured);
  EXPECT_EQ(a.send(Bytes(a.max_payload() + 1, 0x45), sim->now()), transport::SendResult::too_big);
  EXPECT_EQ(stat(a, "form_pieces"), 0.0);
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
