// Property tests: random sources of 1..9000 bytes, random loss (including all sources lost),
// decode byte for byte through the wire format; ISA-L and scalar backends agree.
#include <gtest/gtest.h>

#include "coding/encoder.h"
#include "coding_test_util.h"

namespace ncgw::coding {
namespace {

using test::datagram;
using test::drain;
using test::random_packet;

struct Trial {
  Backend enc_backend, dec_backend;
  std::uint64_t seed;
};

// Sends `cws` CWs of random n (with random early closes and plan changes) over a channel losing
// each datagram with probability `loss` (or all sources of a CW, sometimes); repairs follow until
// each CW decodes. Checks every source comes out once, in order, byte for byte.
void run_stream(const Trial& t, int cws, double loss) {
  transport::Rng rng(t.seed);
  EncoderConfig ec;
  ec.max_open = 4;
  ec.limits.max_accumulated = 8;
  ec.backend = t.enc_backend;
  ec.salt = rng.next();
  Encoder enc(ec);
  DecoderConfig dc;
  dc.max_open = 4;
  dc.backend = t.dec_backend;
  Decoder dec(dc);
  std::vector<std::vector<std::uint8_t>> sent, got;
  for (int c = 0; c < cws; ++c) {
    const unsigned n = 1 + static_cast<unsigned>(rng.below(24));
    CwEncoder* cw = enc.open(n, static_cast<unsigned>(rng.below(6)));
    ASSERT_NE(cw, nullptr);
    const bool lose_all = rng.bernoulli(0.2);
    const unsigned stop_early = rng.bernoulli(0.2) ? 1 + static_cast<unsigned>(rng.below(n)) : n;
    for (unsigned i = 0; i < stop_early; ++i) {
      if (i == stop_early / 2 && rng.bernoulli(0.3)) cw->set_plan(std::max(n, i + 1), static_cast<unsigned>(rng.below(10)));
      sent.push_back(random_packet(rng));
      const Combination comb = cw->add_source(sent.back());
      if (!lose_all && !rng.bernoulli(loss)) dec.feed_datagram(datagram(comb));
      drain(dec, got);
    }
    if (!cw->closed()) cw->close();
    const std::uint64_t id = cw->cw_id();
    for (std::uint32_t r = 0; r < 400; ++r) {
      const auto st = dec.status(id);
      if (dec.oldest_cw() > id || (st && st->complete)) break;
      const Combination comb = cw->repair(r);
      if (!rng.bernoulli(loss)) dec.feed_datagram(datagram(comb));
      drain(dec, got);
    }
    enc.release_through(dec.seen());
  }
  ASSERT_EQ(got.size(), sent.size());
  for (std::size_t i = 0; i < sent.size(); ++i) ASSERT_EQ(got[i], sent[i]) << "source " << i;
  EXPECT_EQ(dec.stats().corrupt, 0U);
}

TEST(CodecProperty, IsalRandomLossDecodesByteForByte) {
  for (std::uint64_t s = 1; s <= 6; ++s) run_stream({Backend::kIsal, Backend::kIsal, s}, 20, 0.3);
}

TEST(CodecProperty, HeavyLossAndAllSourcesLost) {
  for (std::uint64_t s = 10; s <= 13; ++s) run_stream({Backend::kIsal, Backend::kIsal, s}, 12, 0.7);
}

TEST(CodecProperty, ScalarDecoderAndMixedBackends) {
  run_stream({Backend::kScalar, Backend::kScalar, 21}, 6, 0.3);
  run_stream({Backend::kScalar, Backend::kIsal, 22}, 6, 0.3);
  run_stream({Backend::kIsal, Backend::kScalar, 23}, 6, 0.3);
}

TEST(CodecProperty, IsalAndScalarEncodersProduceIdenticalCombinations) {
  transport::Rng rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    CwEncoderLimits lim;
    lim.max_accumulated = 6;
    CwEncoder a(lim, Backend::kIsal), b(lim, Backend::kScalar);
    const unsigned n = 1 + static_cast<unsigned>(rng.below(kMaxWindow));
    const std::uint64_t salt = rng.next();
    a.open(trial, 1000, n, 4, salt);
    b.open(trial, 1000, n, 4, salt);
    for (unsigned i = 0; i < n; ++i) {
      if (i == n / 2) { a.set_plan(n, 6); b.set_plan(n, 6); }  // extra accumulators catch up
      const auto p = random_packet(rng);
      const auto ca = a.add_source(p), cb = b.add_source(p);
      ASSERT_TRUE(std::equal(ca.payload.begin(), ca.payload.end(), p.begin(), p.end()));
      ASSERT_TRUE(std::equal(cb.payload.begin(), cb.payload.end(), p.begin(), p.end()));
    }
    ASSERT_TRUE(a.closed());
    for (std::uint32_t r = 0; r < 10; ++r) {  // 0..5 accumulated, 6..9 computed on demand
      const auto ra = a.repair(r);
      const auto rb = b.repair(r);
      ASSERT_EQ(ra.header.seed, rb.header.seed);
      ASSERT_EQ(ra.header.width, n);
      ASSERT_TRUE(ra.header.closed);
      ASSERT_EQ(ra.payload.size(), a.symbol_bytes());
      ASSERT_TRUE(std::equal(ra.payload.begin(), ra.payload.end(), rb.payload.begin(), rb.payload.end()))
          << "repair " << r;
      // the accumulated repair equals the same seed computed from scratch
      std::vector<std::uint8_t> acc(ra.payload.begin(), ra.payload.end());
      const auto fresh = a.seeded(ra.header.seed);
      ASSERT_TRUE(std::equal(acc.begin(), acc.end(), fresh.payload.begin(), fresh.payload.end()));
    }
  }
}

TEST(CodecProperty, ExplicitCoefficientCombinationsDecode) {
  transport::Rng rng(77);
  CwEncoderLimits lim;
  CwEncoder enc(lim, Backend::kIsal);
  enc.open(0, 0, 8, 0, 1);
  std::vector<std::vector<std::uint8_t>> sent, got;
  for (int i = 0; i < 8; ++i) {
    sent.push_back(random_packet(rng, 3000));
    enc.add_source(sent.back());
  }
  Decoder dec(DecoderConfig{});
  unsigned gained = 0, sent_count = 0;
  while (!dec.status(0) || !dec.status(0)->complete) {
    std::vector<std::uint8_t> coefs(8);
    for (auto& c : coefs) c = static_cast<std::uint8_t>(rng.next());
    ++sent_count;
    if (innovative(dec.feed_datagram(datagram(enc.explicit_combination(coefs))))) ++gained;
    ASSERT_LT(sent_count, 40U);
  }
  EXPECT_EQ(gained, 8U);
  drain(dec, got);
  EXPECT_EQ(got, sent);
}

}  // namespace
}  // namespace ncgw::coding
