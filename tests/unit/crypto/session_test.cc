// The secure session: handshake, records, replay, forgery, wrong keys, rekeying without loss,
// and cookies under a handshake flood.
#include <gtest/gtest.h>

#include "session_pair.h"

namespace ncgw::crypto {
namespace {

using namespace std::chrono_literals;
using test::pair_settings;
using test::SessionPair;

std::vector<std::uint8_t> payload(int i) { return std::vector<std::uint8_t>(100, static_cast<std::uint8_t>(i)); }

TEST(Session, HandshakeThenRecordsBothWays) {
  SessionPair p(pair_settings(1, 2), pair_settings(2, 1));
  p.advance(1ms);
  ASSERT_TRUE(p.a.can_send(p.now));
  ASSERT_TRUE(p.b.can_send(p.now));
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(p.send(p.a, p.b, payload(i)));
    ASSERT_TRUE(p.send(p.b, p.a, payload(i)));
  }
  EXPECT_EQ(p.delivered_a.size(), 10u);
  EXPECT_EQ(p.delivered_b.size(), 10u);
  EXPECT_EQ(p.delivered_b[3], payload(3));
  EXPECT_GE(p.a.key_epoch(), 1u);
}

TEST(Session, ReplayedRecordDroppedAndCounted) {
  SessionPair p(pair_settings(1, 2), pair_settings(2, 1));
  p.advance(1ms);
  ASSERT_TRUE(p.send(p.a, p.b, payload(1)));
  const auto rec = p.last_record;
  p.deliver(p.b, rec, p.delivered_b);
  EXPECT_EQ(p.delivered_b.size(), 1u);
  EXPECT_EQ(p.b.counters().drop_replay, 1u);
}

TEST(Session, ForgedAndTamperedRecordsDropped) {
  SessionPair p(pair_settings(1, 2), pair_settings(2, 1));
  p.advance(1ms);
  ASSERT_TRUE(p.send(p.a, p.b, payload(1)));
  auto rec = p.last_record;
  rec[wire::kOffDataCounter + 5] ^= 0x40;   // a fresh counter: passes the window, fails the tag
  p.deliver(p.b, rec, p.delivered_b);
  rec = p.last_record;
  rec[30] ^= 1;
  rec[wire::kOffDataCounter + 5] += 1;
  p.deliver(p.b, rec, p.delivered_b);
  EXPECT_EQ(p.b.counters().drop_bad_tag, 2u);
  rec[4] ^= 0xff;   // no such receiver index
  p.deliver(p.b, rec, p.delivered_b);
  EXPECT_EQ(p.b.counters().drop_unknown_key, 1u);
  p.deliver(p.b, {4, 0, 0}, p.delivered_b);
  p.deliver(p.b, {9, 0, 0, 0, 1, 2}, p.delivered_b);
  EXPECT_EQ(p.b.counters().drop_malformed, 2u);
  EXPECT_EQ(p.delivered_b.size(), 1u);
}

TEST(Session, WrongPublicKeyNoSession) {
  auto sa = pair_settings(1, 2);
  sa.remote_public = x25519_public(test::test_private(3));   // a believes b is key 3
  SessionPair p(sa, pair_settings(2, 1));
  p.advance(1ms);
  p.advance(2s);
  EXPECT_FALSE(p.a.can_send(p.now));
  EXPECT_FALSE(p.b.can_send(p.now));
  EXPECT_GT(p.b.counters().drop_bad_mac1, 0u);   // a's messages are not addressed to b's key
}

TEST(Session, WrongPskNoSession) {
  auto sa = pair_settings(1, 2);
  sa.psk[0] = 1;
  SessionPair p(sa, pair_settings(2, 1));
  p.advance(1ms);
  p.advance(2s);
  EXPECT_FALSE(p.a.can_send(p.now));
  EXPECT_FALSE(p.b.can_send(p.now));
  EXPECT_GT(p.a.counters().drop_handshake_invalid + p.b.counters().drop_handshake_invalid, 0u);
}

TEST(Session, ReplayedInitiationRefused) {
  SessionPair p(pair_settings(1, 2), pair_settings(2, 1));
  std::vector<std::uint8_t> first;
  p.drop = [&](const std::vector<std::uint8_t>& d) {
    if (d[0] == wire::kTypeInitiation && first.empty()) first = d;
    return false;
  };
  p.advance(1ms);
  ASSERT_FALSE(first.empty());
  p.advance(1s);
  const auto epoch = p.b.key_epoch();
  const auto stale = p.b.counters().drop_stale_timestamp;
  p.deliver(p.b, first, p.delivered_b);
  EXPECT_EQ(p.b.counters().drop_stale_timestamp, stale + 1);
  EXPECT_EQ(p.b.key_epoch(), epoch);
}

TEST(Session, RekeyEveryTwoSecondsLosesNothing) {
  auto sa = pair_settings(1, 2), sb = pair_settings(2, 1);
  sa.rekey_after = sb.rekey_after = 2s;
  sa.reject_after = sb.reject_after = 12s;
  SessionPair p(sa, sb);
  p.advance(1ms);
  int sent = 0;
  for (int step = 0; step < 60 * 100; ++step) {   // 60 s in 10 ms steps, one record each way
    ASSERT_TRUE(p.send(p.a, p.b, payload(step))) << step;
    ASSERT_TRUE(p.send(p.b, p.a, payload(step))) << step;
    ++sent;
    p.advance(10ms);
  }
  EXPECT_EQ(p.delivered_b.size(), static_cast<std::size_t>(sent));
  EXPECT_EQ(p.delivered_a.size(), static_cast<std::size_t>(sent));
  EXPECT_GE(p.a.key_epoch() + p.b.key_epoch(), 30u);
  EXPECT_EQ(p.a.counters().drop_bad_tag + p.b.counters().drop_bad_tag, 0u);
}

TEST(Session, RecordsUnderPreviousKeyStillOpenAfterRekey) {
  SessionPair p(pair_settings(1, 2), pair_settings(2, 1));
  p.advance(1ms);
  // a seals a record, holds it; a rekey completes; the held record still opens (in-flight packet).
  ASSERT_TRUE(p.a.can_send(p.now));
  std::vector<std::uint8_t> rec(100 + wire::kRecordOverhead);
  rec.resize(p.a.seal(rec, 100, p.now));
  const auto epoch = p.a.key_epoch();
  p.advance(121s);
  ASSERT_GT(p.a.key_epoch(), epoch);
  p.deliver(p.b, rec, p.delivered_b);
  EXPECT_EQ(p.delivered_b.size(), 1u);
}

TEST(Session, KeysExpireWithoutHandshake) {
  SessionPair p(pair_settings(1, 2), pair_settings(2, 1));
  p.advance(1ms);
  p.drop = p.drop_ba = [](const auto&) { return true; };   // the link dies
  p.advance(181s);
  EXPECT_FALSE(p.a.can_send(p.now));
  EXPECT_FALSE(p.b.can_send(p.now));
}

// An attacker who knows both gateways' public keys floods each with initiations (valid mac1, its
// own static key) from the other gateway's address, 10 000 a second for 10 s, while the session
// rekeys every 2 s. The responders go under load, answer with cookies (which reach the real peer)
// and spend Diffie-Hellman only on what the rate limit admits; the rekeys still complete.
TEST(Session, RekeysCompleteUnderHandshakeFlood) {
  auto sa = pair_settings(1, 2), sb = pair_settings(2, 1);
  sa.rekey_after = sb.rekey_after = 2s;
  sa.reject_after = sb.reject_after = 12s;
  SessionPair p(sa, sb);
  p.advance(1ms);
  ASSERT_TRUE(p.a.can_send(p.now));
  const auto epoch0 = p.a.key_epoch();
  Session evil_a(pair_settings(9, 1)), evil_b(pair_settings(8, 2));
  std::vector<std::uint8_t> buf(2048), sink(2048);
  const auto start = p.now;
  auto flood = [&](Session& evil, Session& victim, int ms) {
    for (int k = 0; k < 10; ++k) {
      const auto forged_now = start + std::chrono::seconds(1000 * ms + k);   // forces a new message 1
      evil.on_timeout(forged_now);
      while (auto n = evil.poll_control(buf, forged_now)) {
        if (buf[0] == wire::kTypeInitiation) (void)victim.receive({buf.data(), *n}, p.now, sink);
      }
    }
  };
  for (int ms = 1; ms <= 10000; ++ms) {
    p.now = start + std::chrono::milliseconds(ms);
    flood(evil_a, p.a, ms);
    flood(evil_b, p.b, ms);
    p.a.on_timeout(p.now);
    p.b.on_timeout(p.now);
    p.pump();
    ASSERT_TRUE(p.send(p.a, p.b, payload(ms % 256))) << ms;
  }
  EXPECT_EQ(p.delivered_b.size(), 10000u);
  EXPECT_GE(p.a.key_epoch(), epoch0 + 4);
  for (const Session* s : {&p.a, &p.b}) {
    const auto& c = s->counters();
    EXPECT_GT(c.drop_cookie_needed, 90000u);
    // Diffie-Hellman work: the first threshold's worth, then at most the rate limit (+ burst).
    EXPECT_LE(c.drop_wrong_peer + c.handshakes_answered, 20u + 10u * 10 + 10u);
  }
  EXPECT_GT(p.a.counters().cookie_replies_sent + p.b.counters().cookie_replies_sent, 0u);
  EXPECT_GT(p.a.counters().cookies_received + p.b.counters().cookies_received, 0u);
}

}  // namespace
}  // namespace ncgw::crypto
