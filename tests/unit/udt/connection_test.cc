// Two endpoints over the in-memory network: setup in every role, reliable transfer under loss,
// sequence wrap, rejection, message TTL, broken-peer detection.
#include <gtest/gtest.h>

#include <numeric>

#include "pair.h"
#include "transports/udt/seq.h"

namespace ncgw::udt {
namespace {

using namespace std::chrono_literals;
using test::kA;
using test::kB;
using test::MemNet;
using test::Pair;
using test::pattern;
using test::pump_stream;

TEST(UdtConnection, CallerListenerStreamUnderLoss) {
  Pair p;
  ConnectionSettings s;
  transport::Rng loss(5);
  p.net.drop = [&](const PeerAddress&, const std::vector<std::uint8_t>& b) {
    return (b[0] & 0x80) == 0 && loss.bernoulli(0.02);  // 2% of data packets
  };
  auto [c, l] = p.connect(s);
  ASSERT_TRUE(c && l);
  ASSERT_TRUE(c->connected());
  EXPECT_EQ(l->isn(), c->isn());  // the listener adopts the caller's ISN
  const auto data = pattern(2'000'000, 1);
  const auto got = pump_stream(p.net, c, l, data, p.net.now() + 60s);
  ASSERT_EQ(got.size(), data.size());
  EXPECT_TRUE(got == data);
  EXPECT_GT(c->stats().retransmitted, 0u);
  EXPECT_GT(l->stats().naks_sent, 0u);
  EXPECT_GT(l->stats().rcv_loss, 0u);
}

TEST(UdtConnection, MessagesBothWaysAcrossSequenceWrap) {
  Pair p;
  ConnectionSettings s;
  s.type = SocketType::dgram;
  s.initial_seq = 0x7FFFFFFF - 1000;
  auto [c, l] = p.connect(s);
  ASSERT_TRUE(c && l);
  EXPECT_EQ(c->isn(), 0x7FFFFFFF - 1000);
  transport::Rng sizes(3);
  const int kMessages = 3000;
  std::vector<std::vector<std::uint8_t>> msgs;
  for (int i = 0; i < kMessages; ++i) msgs.push_back(pattern(1 + sizes.below(1400), 100 + i));
  int sent_a = 0, sent_b = 0, got_a = 0, got_b = 0;
  bool ok = true;
  std::vector<std::uint8_t> buf(2000);
  p.net.run_until([&] {
    while (sent_a < kMessages && c->send_message(msgs[sent_a], p.net.now())) ++sent_a;
    while (sent_b < kMessages && l->send_message(msgs[sent_b], p.net.now())) ++sent_b;
    while (auto n = l->recv_message(buf)) ok &= std::equal(buf.begin(), buf.begin() + static_cast<long>(*n), msgs[got_b++].begin());
    while (auto n = c->recv_message(buf)) ok &= std::equal(buf.begin(), buf.begin() + static_cast<long>(*n), msgs[got_a++].begin());
    return got_a == kMessages && got_b == kMessages;
  }, p.net.now() + 60s);
  EXPECT_EQ(got_a, kMessages);
  EXPECT_EQ(got_b, kMessages);
  EXPECT_TRUE(ok);
  EXPECT_GT(c->stats().sent, 1000u);  // crossed the wrap at 0x7FFFFFFF
}

TEST(UdtConnection, RendezvousBothSides) {
  Pair p;
  ConnectionSettings s;
  const auto ia = p.a.rendezvous(kB, s, p.net.now());
  p.net.run_until([] { return false; }, p.net.now() + 100ms);  // b starts later
  const auto ib = p.b.rendezvous(kA, s, p.net.now());
  Connection* ca = p.a.find(ia);
  Connection* cb = p.b.find(ib);
  ASSERT_TRUE(p.net.run_until([&] { return ca->connected() && cb->connected(); }, p.net.now() + 5s));
  EXPECT_EQ(ca->peer_id(), ib);
  EXPECT_EQ(cb->peer_id(), ia);
  const auto data = pattern(300'000, 9);
  EXPECT_TRUE(pump_stream(p.net, cb, ca, data, p.net.now() + 20s) == data);
}

TEST(UdtConnection, SocketTypeMismatchIsRefused) {
  Pair p;
  ConnectionSettings s;
  p.b.listen(s);
  ConnectionSettings d;
  d.type = SocketType::dgram;
  const auto id = p.a.connect(kB, d, p.net.now());
  Connection* c = p.a.find(id);
  p.net.run_until([&] { return c->state() != ConnState::connecting; }, p.net.now() + 5s);
  EXPECT_EQ(c->state(), ConnState::rejected);
  EXPECT_FALSE(p.b.accept());
}

TEST(UdtConnection, CallerTimesOutWithoutListener) {
  Pair p;
  ConnectionSettings s;
  const auto id = p.a.connect(kB, s, p.net.now());
  Connection* c = p.a.find(id);
  const auto start = p.net.now();
  p.net.run_until([&] { return c->state() != ConnState::connecting; }, p.net.now() + 10s);
  EXPECT_EQ(c->state(), ConnState::timed_out);
  EXPECT_GE(p.net.now() - start, 3s);
}

TEST(UdtConnection, ExpiredMessageIsDroppedAndLaterOnesArrive) {
  Pair p;
  ConnectionSettings s;
  s.type = SocketType::dgram;
  auto [c, l] = p.connect(s);
  ASSERT_TRUE(c && l);
  // message 1 (3 packets) is lost entirely the first time; its TTL (50 ms) runs out before EXP.
  int data_seen = 0;
  p.net.drop = [&](const PeerAddress& from, const std::vector<std::uint8_t>& b) {
    return from == kA && (b[0] & 0x80) == 0 && data_seen++ < 3;
  };
  ASSERT_TRUE(c->send_message(pattern(4000, 1), p.net.now(), 50));
  ASSERT_TRUE(c->send_message(pattern(10, 2), p.net.now()));
  std::vector<std::uint8_t> buf(5000);
  std::optional<std::size_t> n;
  ASSERT_TRUE(p.net.run_until([&] { return (n = l->recv_message(buf)).has_value(); }, p.net.now() + 5s));
  EXPECT_EQ(*n, 10u);
  EXPECT_EQ(c->stats().drops_sent, 1u);
}

TEST(UdtConnection, SilentPeerBreaksTheConnection) {
  Pair p;
  ConnectionSettings s;
  auto [c, l] = p.connect(s);
  ASSERT_TRUE(c && l);
  p.net.drop = [](const PeerAddress&, const std::vector<std::uint8_t>&) { return true; };
  c->send_stream(pattern(1000, 1), p.net.now());
  const auto start = p.net.now();
  ASSERT_TRUE(p.net.run_until([&] { return c->state() == ConnState::broken; }, p.net.now() + 120s));
  EXPECT_GT(p.net.now() - start, 30s);  // > 16 EXPs with N x 300 ms backoff
}

// The peer learns of a close even when the first SHUTDOWN (or the first two) is lost.
TEST(UdtConnection, CloseSurvivesLostShutdowns) {
  Pair p;
  ConnectionSettings s;
  auto [c, l] = p.connect(s);
  ASSERT_TRUE(c && l);
  int shutdowns_dropped = 0;
  p.net.drop = [&](const PeerAddress&, const std::vector<std::uint8_t>& b) {
    const bool is_shutdown = b[0] == 0x80 && b[1] == 0x05;  // control type 5
    if (is_shutdown && shutdowns_dropped < wire::kShutdownCopies - 1) {
      ++shutdowns_dropped;
      return true;
    }
    return false;
  };
  c->close(p.net.now());
  EXPECT_TRUE(p.net.run_until([&] { return l->peer_closed(); }, p.net.now() + 100ms));
  EXPECT_EQ(shutdowns_dropped, wire::kShutdownCopies - 1);
}

}  // namespace
}  // namespace ncgw::udt
