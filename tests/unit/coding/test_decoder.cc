// Decoder behaviour: the seen rule, release order, classification of every arrival, window and
// base bookkeeping across CWs.
#include <gtest/gtest.h>

#include <array>
#include <set>

#include "coding/encoder.h"
#include "coding_test_util.h"

namespace ncgw::coding {
namespace {

using test::datagram;
using test::drain;
using test::random_packet;

// A sender with its own ring, sizes small enough for quick tests.
struct Pair {
  explicit Pair(std::uint64_t first_cw = 0, std::uint64_t first_source = 0, std::size_t max_open = 4)
      : enc(make_enc(first_cw, first_source, max_open)), dec(make_dec(first_cw, first_source, max_open)) {}
  static EncoderConfig make_enc(std::uint64_t cw, std::uint64_t src, std::size_t max_open) {
    EncoderConfig c;
    c.max_open = max_open;
    c.first_cw_id = cw;
    c.first_source = src;
    c.salt = 1234;
    c.limits.max_packet = 2000;
    return c;
  }
  static DecoderConfig make_dec(std::uint64_t cw, std::uint64_t src, std::size_t max_open) {
    DecoderConfig c;
    c.max_open = max_open;
    c.first_cw_id = cw;
    c.first_source = src;
    c.max_packet = 2000;
    return c;
  }
  FeedResult send(const Combination& c) { return dec.feed_datagram(datagram(c)); }
  Encoder enc;
  Decoder dec;
  transport::Rng rng{9};
};

TEST(Decoder, SeenRuleFollowsDegreesOfFreedomNotDecodedPackets) {
  Pair t;
  CwEncoder* cw = t.enc.open(4, 2);
  std::vector<std::vector<std::uint8_t>> p, got;
  std::vector<Combination> src;
  for (int i = 0; i < 4; ++i) {
    p.push_back(random_packet(t.rng, 2000));
    src.push_back(cw->add_source(p.back()));
  }
  ASSERT_TRUE(cw->closed());
  // p1, p2 lost; p3, p4, C5, C6 arrive (paper 002, Fig. 2)
  EXPECT_EQ(t.dec.seen(), 0U);
  EXPECT_EQ(t.send(src[2]), FeedResult::kInnovative);
  EXPECT_EQ(t.dec.seen(), 1U);
  EXPECT_FALSE(t.dec.next_length().has_value());  // p1 not decoded: nothing released
  EXPECT_EQ(t.send(src[3]), FeedResult::kInnovative);
  EXPECT_EQ(t.dec.seen(), 2U);
  EXPECT_EQ(t.send(cw->repair(0)), FeedResult::kInnovative);
  EXPECT_EQ(t.dec.seen(), 3U);
  EXPECT_FALSE(t.dec.next_length().has_value());
  const auto st = t.dec.status(0);
  ASSERT_TRUE(st);
  EXPECT_EQ(st->rank, 3U);
  EXPECT_EQ(st->missing, 1U);
  EXPECT_TRUE(st->n_final);
  EXPECT_EQ(t.send(cw->repair(1)), FeedResult::kInnovative);
  EXPECT_EQ(t.dec.seen(), 4U);
  drain(t.dec, got);
  EXPECT_EQ(got, p);
  EXPECT_EQ(t.send(cw->repair(2)), FeedResult::kStale);  // after decoding: non-innovative, stale
}

TEST(Decoder, SystematicSourcesReleaseImmediatelyInOrder) {
  Pair t;
  CwEncoder* cw = t.enc.open(6, 2);
  std::vector<std::vector<std::uint8_t>> p, got;
  for (int i = 0; i < 6; ++i) {
    p.push_back(random_packet(t.rng, 2000));
    const auto c = cw->add_source(p.back());
    if (i == 2) continue;  // lost: later ones wait for it
    EXPECT_EQ(t.send(c), FeedResult::kInnovative);
    drain(t.dec, got);
    EXPECT_EQ(got.size(), i < 2 ? static_cast<std::size_t>(i + 1) : 2U);
  }
  EXPECT_EQ(t.send(cw->repair(0)), FeedResult::kInnovative);
  drain(t.dec, got);
  EXPECT_EQ(got, p);
}

TEST(Decoder, ClassifiesDuplicatesDependentStaleOutOfWindow) {
  Pair t(0, 0, 2);
  CwEncoder* cw = t.enc.open(4, 2);
  std::vector<Combination> c;
  std::vector<std::vector<std::uint8_t>> p;
  for (int i = 0; i < 3; ++i) {
    p.push_back(random_packet(t.rng, 2000));
    c.push_back(cw->add_source(p.back()));
  }
  EXPECT_EQ(t.send(c[0]), FeedResult::kInnovative);
  EXPECT_EQ(t.send(c[0]), FeedResult::kDuplicate);
  EXPECT_EQ(t.send(c[1]), FeedResult::kInnovative);
  // 3*p0 + 5*p1 + 0*p2 is dependent on p0, p1
  const std::vector<std::uint8_t> coefs = {3, 5, 0};
  EXPECT_EQ(t.send(cw->explicit_combination(coefs)), FeedResult::kDependent);
  const auto r0 = datagram(cw->repair(0));  // width 3, CW not closed yet
  EXPECT_EQ(t.dec.feed_datagram(r0), FeedResult::kInnovative);
  EXPECT_EQ(t.dec.feed_datagram(r0), FeedResult::kDuplicate);
  EXPECT_EQ(t.send(c[2]), FeedResult::kDependent);  // p2 already follows from p0, p1, r0
  EXPECT_EQ(t.dec.seen(), 3U);
  const DecoderStats& s = t.dec.stats();
  EXPECT_EQ(s.innovative, 3U);
  EXPECT_EQ(s.duplicate, 2U);
  EXPECT_EQ(s.dependent, 2U);
  // CW 2 is beyond a window of 2 slots while CW 0 is unreleased
  CodingHeader far;
  far.kind = Kind::kSource;
  far.cw_id = 2;
  far.base = 10;
  far.width = 1;
  const std::vector<std::uint8_t> one = {1};
  EXPECT_EQ(t.dec.feed(far, one), FeedResult::kOutOfWindow);
  // finish CW 0, release, then its packets are stale
  p.push_back(random_packet(t.rng, 2000));
  EXPECT_EQ(t.send(cw->add_source(p.back())), FeedResult::kInnovative);
  std::vector<std::vector<std::uint8_t>> got;
  drain(t.dec, got);
  EXPECT_EQ(got, p);
  EXPECT_EQ(t.dec.oldest_cw(), 1U);
  EXPECT_EQ(t.send(c[0]), FeedResult::kStale);
}

TEST(Decoder, RejectsInconsistentCombinations) {
  Pair t;
  CwEncoder* cw = t.enc.open(3, 1);
  std::vector<Combination> c;
  for (int i = 0; i < 3; ++i) c.push_back(cw->add_source(random_packet(t.rng, 2000)));
  EXPECT_EQ(t.send(c[0]), FeedResult::kInnovative);
  CodingHeader h = c[1].header;
  h.base = 7;  // CW 0 starts at 0
  EXPECT_EQ(t.dec.feed(h, c[1].payload), FeedResult::kMalformed);
  const Combination r = cw->repair(0);
  EXPECT_EQ(t.send(r), FeedResult::kInnovative);  // closed, width 3: n = 3 from now on
  h = r.header;
  h.width = 4;
  h.seed ^= 1;
  EXPECT_EQ(t.dec.feed(h, r.payload), FeedResult::kMalformed);  // n is 3
  h = c[1].header;
  h.width = 6;
  h.index = 5;
  EXPECT_EQ(t.dec.feed(h, c[1].payload), FeedResult::kMalformed);  // index beyond n
  std::vector<std::uint8_t> big(2001, 1);
  EXPECT_EQ(t.dec.feed(c[1].header, big), FeedResult::kMalformed);  // longer than max_packet
  EXPECT_EQ(t.dec.feed(c[1].header, {}), FeedResult::kMalformed);   // empty
  std::vector<std::uint8_t> junk = {0xFF, 0x00, 0x01};
  EXPECT_EQ(t.dec.feed_datagram(junk), FeedResult::kMalformed);
  EXPECT_EQ(t.dec.stats().malformed, 6U);
  EXPECT_EQ(t.dec.seen(), 2U);  // nothing malformed changed the state
  EXPECT_EQ(t.send(c[1]), FeedResult::kInnovative);
  EXPECT_EQ(t.dec.seen(), 3U);
}

TEST(Decoder, ClosedWidthBelowAHeldRowIsMalformed) {
  Pair t;
  CwEncoder* cw = t.enc.open(5, 0);
  for (int i = 0; i < 4; ++i) cw->add_source(random_packet(t.rng, 2000));
  const std::vector<std::uint8_t> coefs = {1, 0, 0, 5};  // spans column 3
  EXPECT_EQ(t.send(cw->explicit_combination(coefs)), FeedResult::kInnovative);
  CodingHeader h = cw->repair(0).header;
  h.width = 3;
  h.closed = true;
  const std::vector<std::uint8_t> pl(100, 7);
  EXPECT_EQ(t.dec.feed(h, pl), FeedResult::kMalformed);  // n = 3 would strand the held row
  CodingHeader next;  // nor may the next CW's base imply n = 3
  next.cw_id = 1;
  next.base = 3;
  next.width = 1;
  EXPECT_EQ(t.dec.feed(next, pl), FeedResult::kMalformed);
  next.base = 4;
  EXPECT_EQ(t.dec.feed(next, pl), FeedResult::kInnovative);
  EXPECT_TRUE(t.dec.status(0)->n_final);
  EXPECT_EQ(t.dec.status(0)->n, 4U);
}

TEST(Decoder, EarlyCloseLearntFromNextCwBase) {
  Pair t;
  std::vector<std::vector<std::uint8_t>> p, got;
  CwEncoder* cw = t.enc.open(8, 0);
  for (int i = 0; i < 3; ++i) {
    p.push_back(random_packet(t.rng, 2000));
    EXPECT_EQ(t.send(cw->add_source(p.back())), FeedResult::kInnovative);
  }
  cw->close();  // traffic paused; no repairs planned, so no closed flag went out
  drain(t.dec, got);
  EXPECT_EQ(got.size(), 3U);
  EXPECT_EQ(t.dec.oldest_cw(), 0U);  // n of CW 0 still unknown
  EXPECT_FALSE(t.dec.status(0)->n_final);
  CwEncoder* cw1 = t.enc.open(2, 0);
  ASSERT_EQ(cw1->base(), 3U);
  p.push_back(random_packet(t.rng, 2000));
  EXPECT_EQ(t.send(cw1->add_source(p.back())), FeedResult::kInnovative);
  drain(t.dec, got);
  EXPECT_EQ(t.dec.oldest_cw(), 1U);
  EXPECT_EQ(t.dec.seen(), 4U);
  EXPECT_EQ(got, p);
}

TEST(Decoder, LateRetransmissionUnblocksLaterCwsInOrder) {
  Pair t;
  std::vector<std::vector<std::uint8_t>> p, got;
  for (int c = 0; c < 3; ++c) {
    CwEncoder* cw = t.enc.open(4, 1);
    for (int i = 0; i < 4; ++i) {
      p.push_back(random_packet(t.rng, 2000));
      const auto comb = cw->add_source(p.back());
      if (c == 0 && i < 2) continue;  // CW 0 loses two sources; its one repair cannot cover it
      t.send(comb);
    }
    t.send(cw->repair(0));
  }
  drain(t.dec, got);
  EXPECT_TRUE(got.empty());
  std::array<CwStatus, 8> inc{};
  ASSERT_EQ(t.dec.incomplete(inc), 1U);
  EXPECT_EQ(inc[0].cw_id, 0U);
  EXPECT_EQ(inc[0].missing, 1U);
  EXPECT_EQ(t.dec.seen(), 3U);  // CW 0 base 0 + rank 3
  EXPECT_EQ(t.enc.release_through(t.dec.seen()), 0U);
  // coded retransmission: a new repair of CW 0, long after it closed
  EXPECT_EQ(t.send(t.enc.find(0)->repair(5)), FeedResult::kInnovative);
  EXPECT_EQ(t.dec.seen(), 12U);
  drain(t.dec, got);
  EXPECT_EQ(got, p);
  EXPECT_EQ(t.enc.release_through(t.dec.seen()), 3U);
  EXPECT_EQ(t.dec.incomplete(inc), 0U);
}

TEST(Decoder, SequenceNumbersWrapOnTheWire) {
  Pair t(0xFFFFFFFFULL, 0xFFFFFFFEULL);
  std::vector<std::vector<std::uint8_t>> p, got;
  for (int c = 0; c < 3; ++c) {
    CwEncoder* cw = t.enc.open(3, 1);
    for (int i = 0; i < 3; ++i) {
      p.push_back(random_packet(t.rng, 2000));
      const auto comb = cw->add_source(p.back());
      if (i != 1) EXPECT_EQ(t.send(comb), FeedResult::kInnovative);
    }
    EXPECT_EQ(t.send(cw->repair(0)), FeedResult::kInnovative);
    drain(t.dec, got, 0xFFFFFFFEULL);
    t.enc.release_through(t.dec.seen());
  }
  EXPECT_EQ(got, p);
  EXPECT_EQ(t.dec.seen(), 0xFFFFFFFEULL + 9);
  EXPECT_EQ(t.dec.oldest_cw(), 0xFFFFFFFFULL + 3);
}

TEST(Decoder, WholeCwLostThenRecoveredByRepairsOnly) {
  Pair t;
  std::vector<std::vector<std::uint8_t>> p, got;
  CwEncoder* cw0 = t.enc.open(5, 0);
  for (int i = 0; i < 5; ++i) {
    p.push_back(random_packet(t.rng, 2000));
    cw0->add_source(p.back());  // every source of CW 0 lost
  }
  CwEncoder* cw1 = t.enc.open(2, 0);
  for (int i = 0; i < 2; ++i) {
    p.push_back(random_packet(t.rng, 2000));
    EXPECT_EQ(t.send(cw1->add_source(p.back())), FeedResult::kInnovative);
  }
  EXPECT_EQ(t.dec.seen(), 0U);
  std::array<CwStatus, 4> inc{};
  ASSERT_EQ(t.dec.incomplete(inc), 1U);
  EXPECT_EQ(inc[0].cw_id, 0U);
  EXPECT_TRUE(inc[0].n_final);  // n = 5 follows from CW 1's base
  EXPECT_EQ(inc[0].missing, 5U);
  unsigned fed = 0;
  for (std::uint32_t r = 0; t.dec.seen() < 7; ++r, ++fed) t.send(t.enc.find(0)->repair(r));
  EXPECT_GE(fed, 5U);
  drain(t.dec, got);
  EXPECT_EQ(got, p);
}

// CWs released one after another reuse the slot and the row block freed last, so the memory
// written follows the CWs open at once (here one, then two), not the number of slots (16).
TEST(Decoder, ReleasedCwsReuseTheMemoryFreedLast) {
  Pair t(0, 0, 16);
  std::set<const void*> enc_slots, dec_rows;
  std::vector<std::vector<std::uint8_t>> p, got;
  auto send_cw = [&](CwEncoder* cw) {
    for (int i = 0; i < 3; ++i) {
      p.push_back(random_packet(t.rng, 1500));
      EXPECT_EQ(t.send(cw->add_source(p.back())), FeedResult::kInnovative);
    }
  };
  auto release = [&] {
    ASSERT_FALSE(t.dec.front().empty());
    dec_rows.insert(t.dec.front().data());  // row 0 of the CW's block
    drain(t.dec, got);
    t.enc.release_through(t.dec.seen());
  };
  for (int round = 0; round < 40; ++round) {  // one CW at a time
    CwEncoder* cw = t.enc.open(3, 0);
    ASSERT_NE(cw, nullptr);
    enc_slots.insert(cw);
    send_cw(cw);
    release();
  }
  EXPECT_EQ(enc_slots.size(), 1U);
  EXPECT_EQ(dec_rows.size(), 1U);
  for (int round = 0; round < 40; ++round) {  // two at a time: the second arrives before the first is released
    CwEncoder* a = t.enc.open(3, 0);
    enc_slots.insert(a);
    for (int i = 0; i < 3; ++i) {
      p.push_back(random_packet(t.rng, 1500));
      const auto c = a->add_source(p.back());
      if (i > 0) EXPECT_EQ(t.send(c), FeedResult::kInnovative);  // source 0 lost: the CW waits
    }
    CwEncoder* b = t.enc.open(3, 0);
    enc_slots.insert(b);
    send_cw(b);
    EXPECT_EQ(t.send(a->repair(0)), FeedResult::kInnovative);
    release();
  }
  EXPECT_EQ(enc_slots.size(), 2U);
  EXPECT_EQ(dec_rows.size(), 2U);
  EXPECT_EQ(got, p);
}

}  // namespace
}  // namespace ncgw::coding
