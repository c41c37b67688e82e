// ACKs a buggy or hostile peer can send on a live connection: a light ACK beyond what was sent
// (it would drive the flow window negative and stall sending) and full ACKs with RTT and rate
// fields near INT32_MAX (signed overflow in the averages). The stream must carry on.
#include <gtest/gtest.h>

#include <limits>

#include "pair.h"
#include "transports/udt/packet.h"
#include "transports/udt/seq.h"

namespace ncgw::udt {
namespace {

using namespace std::chrono_literals;
using test::Pair;
using test::pattern;
using test::pump_stream;

// Feeds `c` an ACK with content `a`, as if from its peer.
void inject_ack(Connection* c, const AckContent& a, std::int32_t ack_seq, TimePoint now) {
  std::vector<std::uint8_t> buf(64);
  buf.resize(write_ack(buf, static_cast<std::uint32_t>(c->self_id()), ack_seq, a));
  const auto p = parse_packet(buf);
  ASSERT_TRUE(p);
  c->on_packet(*p, now);
}

TEST(UdtHostileAck, LightAckBeyondWhatWasSentIsIgnored) {
  Pair p;
  auto [c, l] = p.connect(ConnectionSettings{});
  ASSERT_TRUE(c && l);
  AckContent a;
  a.words = 1;
  a.ack = seq::add(c->isn(), 1'000'000);
  inject_ack(c, a, 0, p.net.now());
  EXPECT_GE(c->stats().flow_window, 0);
  const auto data = pattern(300'000, 7);
  const auto got = pump_stream(p.net, c, l, data, p.net.now() + 20s);
  EXPECT_TRUE(got == data);
}

TEST(UdtHostileAck, ExtremeRttAndRatesDoNotOverflow) {
  Pair p;
  auto [c, l] = p.connect(ConnectionSettings{});
  ASSERT_TRUE(c && l);
  const auto first = pattern(100'000, 8);
  ASSERT_TRUE(pump_stream(p.net, c, l, first, p.net.now() + 20s) == first);
  const auto acked = c->stats().sent;   // no loss: every packet sent once, all acknowledged
  // More data goes out and is lost, so an ACK can acknowledge something new.
  p.net.drop = [](const auto&, const auto&) { return true; };
  const auto more = pattern(20'000, 9);
  (void)c->send_stream(more, p.net.now());
  p.net.run_until([] { return false; }, p.net.now() + 50ms);
  ASSERT_GT(c->stats().sent, acked);
  std::int32_t next = c->isn();
  for (std::uint64_t i = 0; i <= acked; ++i) next = seq::inc(next);   // one packet past the old ACK
  AckContent a;
  a.words = 6;
  a.ack = next;
  a.rtt_us = std::numeric_limits<std::int32_t>::max();
  a.rtt_var_us = std::numeric_limits<std::int32_t>::max();
  a.avail_buffer = std::numeric_limits<std::int32_t>::min();
  a.arrival_rate = std::numeric_limits<std::int32_t>::max();
  a.capacity = std::numeric_limits<std::int32_t>::max();
  inject_ack(c, a, 1000, p.net.now());
  const auto st = c->stats();
  EXPECT_GT(st.rtt_us, 0);
  EXPECT_LE(st.rtt_us, 60'000'000);
  EXPECT_GE(st.rtt_var_us, 0);
  EXPECT_GE(st.flow_window, 0);
  EXPECT_GT(st.delivery_rate_pps, 0);
}

}  // namespace
}  // namespace ncgw::udt
