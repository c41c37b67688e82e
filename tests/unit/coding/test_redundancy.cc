// The redundancy model against brute-force enumeration and Monte Carlo of the same chain, and the
// chooser against exhaustive search.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>

#include "coding/coefficients.h"
#include "coding/gf256.h"
#include "coding/redundancy.h"
#include "transports/common/rng.h"

namespace ncgw::coding {
namespace {

TEST(Redundancy, FullRankProbability) {
  EXPECT_EQ(full_rank_probability(0, 0), 1.0);
  EXPECT_EQ(full_rank_probability(3, 4), 0.0);
  EXPECT_DOUBLE_EQ(full_rank_probability(1, 1), 255.0 / 256.0);
  EXPECT_DOUBLE_EQ(full_rank_probability(2, 2), (1 - 1.0 / 65536) * (1 - 1.0 / 256));
  EXPECT_GT(full_rank_probability(3, 2), full_rank_probability(2, 2));
}

// Exact P(decodable) by enumerating all 2^(n+k) loss patterns with their chain probabilities.
double brute_force(const GeChannel& ch, unsigned n, unsigned k) {
  const unsigned m = n + k;
  const double pi_bad = ch.p / (ch.p + ch.r);
  double total = 0;
  for (unsigned mask = 0; mask < (1U << m); ++mask) {  // bit set = lost
    double pr = (mask & 1U) ? pi_bad : 1 - pi_bad;
    for (unsigned i = 1; i < m; ++i) {
      const bool prev = (mask >> (i - 1)) & 1U, cur = (mask >> i) & 1U;
      pr *= prev ? (cur ? 1 - ch.r : ch.r) : (cur ? ch.p : 1 - ch.p);
    }
    unsigned d = 0, j = 0;
    for (unsigned i = 0; i < n; ++i) d += (mask >> i) & 1U;
    for (unsigned i = n; i < m; ++i) j += !((mask >> i) & 1U);
    total += pr * full_rank_probability(j, d);
  }
  return total;
}

TEST(Redundancy, DpEqualsBruteForceEnumeration) {
  for (const GeChannel ch : {GeChannel{0.05, 0.5}, GeChannel{0.2, 0.3}, GeChannel{0.01, 0.9}})
    for (unsigned n = 1; n <= 8; n += 3)
      for (unsigned k = 0; k <= 4; ++k)
        EXPECT_NEAR(model_cw(ch, n, k).p_decodable, brute_force(ch, n, k), 1e-12)
            << ch.p << " " << ch.r << " " << n << " " << k;
}

// Rank over GF(2^8) of `rows` coefficient vectors restricted to `cols` (scalar elimination).
unsigned rank_of(std::array<std::array<std::uint8_t, 64>, 64>& a, unsigned rows, unsigned cols) {
  unsigned rank = 0;
  for (unsigned c = 0; c < cols && rank < rows; ++c) {
    unsigned piv = rank;
    while (piv < rows && a[piv][c] == 0) ++piv;
    if (piv == rows) continue;
    std::swap(a[piv], a[rank]);
    const std::uint8_t inv = gf::inv(a[rank][c]);
    for (unsigned x = 0; x < cols; ++x) a[rank][x] = gf::mul(a[rank][x], inv);
    for (unsigned r = 0; r < rows; ++r) {
      if (r == rank || a[r][c] == 0) continue;
      const std::uint8_t f = a[r][c];
      for (unsigned x = 0; x < cols; ++x) a[r][x] ^= gf::mul(f, a[rank][x]);
    }
    ++rank;
  }
  return rank;
}

// One Monte Carlo CW: GE chain from the stationary law, seeded repair coefficients from the wire
// generator, decodable iff the repairs restricted to the lost sources have full rank.
bool mc_trial(transport::Rng& rng, const GeChannel& ch, unsigned n, unsigned k) {
  bool bad = rng.bernoulli(ch.p / (ch.p + ch.r));
  std::array<unsigned, 64> lost_cols{};
  unsigned d = 0, j = 0;
  std::array<std::array<std::uint8_t, 64>, 64> a{};
  for (unsigned i = 0; i < n + k; ++i) {
    if (i < n && bad) lost_cols[d++] = i;
    if (i >= n && !bad) {
      const auto seed = static_cast<std::uint32_t>(rng.next());
      for (unsigned x = 0; x < d; ++x) a[j][x] = coefficient_at(seed, lost_cols[x]);
      ++j;
    }
    bad = bad ? !rng.bernoulli(ch.r) : rng.bernoulli(ch.p);
  }
  if (d == 0) return true;
  if (j < d) return false;
  return rank_of(a, j, d) == d;
}

TEST(Redundancy, DpAgreesWithMonteCarloWithinFiveStandardErrors) {
  constexpr int kTrials = 100'000;
  const GeChannel chans[] = {{0.02, 0.5}, {0.05, 0.3}, {0.10, 0.6}};
  const unsigned ns[] = {4, 16};
  const unsigned ks[] = {1, 3};
  transport::Rng rng(2024);
  for (const GeChannel& ch : chans)
    for (unsigned n : ns)
      for (unsigned k : ks) {
        unsigned ok = 0;
        for (int t = 0; t < kTrials; ++t) ok += mc_trial(rng, ch, n, k);
        const double mc = static_cast<double>(ok) / kTrials;
        const double dp = model_cw(ch, n, k).p_decodable;
        const double se = std::sqrt(dp * (1 - dp) / kTrials);
        std::printf("p=%.2f r=%.2f n=%2u k=%u: DP %.5f MC %.5f  |diff|/SE %.2f\n", ch.p, ch.r, n, k, dp,
                    mc, se > 0 ? std::abs(dp - mc) / se : 0.0);
        EXPECT_LE(std::abs(dp - mc), 5 * se + 1e-12) << ch.p << " " << ch.r << " " << n << " " << k;
      }
}

// One point at the shipped defaults' scale (n_max 64, k_max 24) on bursty channels, where the
// repair matrix restricted to the lost sources is large (up to 24 x 24) and P(decodable) is well
// inside (0, 1). 10^5 trials per point; the test took 1.9 s (wall) in Release on the shared 2-core
// machine, so n = 64 fits the ~5 s budget.
TEST(Redundancy, DpAgreesWithMonteCarloAtDefaultScale) {
  constexpr int kTrials = 100'000;
  constexpr unsigned kN = 64, kK = 24;
  // Gilbert-Elliott 10% / mean burst 3 and 20% / mean burst 5: p = e r / (1 - e).
  const GeChannel chans[] = {{0.1 / 3 / 0.9, 1.0 / 3}, {0.2 * 0.2 / 0.8, 0.2}};
  transport::Rng rng(2025);
  for (const GeChannel& ch : chans) {
    unsigned ok = 0;
    for (int t = 0; t < kTrials; ++t) ok += mc_trial(rng, ch, kN, kK);
    const double mc = static_cast<double>(ok) / kTrials;
    const double dp = model_cw(ch, kN, kK).p_decodable;
    const double se = std::sqrt(dp * (1 - dp) / kTrials);
    std::printf("p=%.4f r=%.3f n=%u k=%u: DP %.5f MC %.5f  |diff|/SE %.2f\n", ch.p, ch.r, kN, kK, dp, mc,
                se > 0 ? std::abs(dp - mc) / se : 0.0);
    EXPECT_GT(dp, 0.5);
    EXPECT_LT(dp, 0.999);
    EXPECT_LE(std::abs(dp - mc), 5 * se + 1e-12) << ch.p << " " << ch.r;
  }
}

TEST(Redundancy, FieldRankTermMatters) {
  // With one repair per CW and one lost source the GF(2^8) term costs exactly 1/256 of those cases.
  const GeChannel ch{0.05, 0.95};
  const double with = model_cw(ch, 1, 1, true).p_decodable;
  const double mds = model_cw(ch, 1, 1, false).p_decodable;
  EXPECT_NEAR(mds - with, 0.05 * 0.95 / 256, 1e-12);
}

// Exhaustive search using model_cw: the chooser must find the same optimum.
Choice exhaustive(const GeChannel& ch, const ChooserBounds& b) {
  Choice best;
  bool have = false;
  const double e = ch.p / (ch.p + ch.r), limit = 1 - e;
  for (unsigned n = b.n_min; n <= b.n_max; ++n)
    for (unsigned k = 0; k <= b.k_max; ++k) {
      if (n + k > b.r_max * n + 1e-9) continue;
      const CwModel m = model_cw(ch, n, k);
      const double eff = n / (n + k + m.expected_missing / limit + m.p_retransmit * b.round_cost);
      const bool met = m.p_retransmit <= b.target_retransmit;
      const bool better = !have || (met != best.target_met ? met
                                    : met ? eff > best.efficiency + 1e-12
                                          : m.p_retransmit < best.p_retransmit - 1e-15);
      if (better) best = Choice{n, k, m.p_retransmit, eff, limit, met}, have = true;
    }
  return best;
}

TEST(Redundancy, ChooserFindsTheBestPairWithinBounds) {
  const ChooserBounds bounds[] = {{4, 32, 16, 2.0, 0.02},       {8, 16, 4, 1.25, 0.01},
                                  {2, 64, 24, 3.0, 0.05},       {4, 32, 16, 2.0, 0.02, 200.0},
                                  {2, 64, 24, 3.0, 0.5, 600.0}, {8, 16, 4, 1.25, 0.01, 50.0}};
  const GeChannel chans[] = {{0.0, 1.0}, {0.01, 0.99}, {0.02, 0.3}, {0.05, 0.2}, {0.2, 0.5}};
  for (const ChooserBounds& b : bounds)
    for (const GeChannel& ch : chans) {
      const Choice c = choose_redundancy(ch, b);
      const Choice x = exhaustive(ch, b);
      EXPECT_GE(c.n, b.n_min);
      EXPECT_LE(c.n, b.n_max);
      EXPECT_LE(c.k, b.k_max);
      EXPECT_LE(c.n + c.k, b.r_max * c.n + 1e-9);
      EXPECT_EQ(c.target_met, x.target_met);
      EXPECT_NEAR(c.efficiency, x.efficiency, 1e-9);
      EXPECT_NEAR(c.p_retransmit, model_cw(ch, c.n, c.k).p_retransmit, 1e-12);
      EXPECT_LE(c.efficiency, c.limit + 1e-12);
      if (c.target_met) {
        EXPECT_LE(c.p_retransmit, b.target_retransmit);
      }
    }
  const Choice lossless = choose_redundancy({0.0, 1.0}, {4, 32, 16, 2.0, 0.02});
  EXPECT_EQ(lossless.k, 0U);
  EXPECT_EQ(lossless.n, 4U);  // all n equally efficient: the smallest delay wins
  EXPECT_DOUBLE_EQ(lossless.efficiency, 1.0);
  const Choice lossy = choose_redundancy({0.02, 0.3}, {4, 32, 16, 2.0, 0.02});
  std::printf("chooser GE(0.02, 0.3): n=%u k=%u P(retx)=%.4f efficiency %.4f limit %.4f\n", lossy.n,
              lossy.k, lossy.p_retransmit, lossy.efficiency, lossy.limit);
  EXPECT_TRUE(lossy.target_met);
  EXPECT_GT(lossy.k, 0U);
  EXPECT_LT(lossy.efficiency, lossy.limit);
  // a looser target can only raise the predicted efficiency (the feasible set grows)
  const Choice loose = choose_redundancy({0.02, 0.3}, {4, 32, 16, 2.0, 0.10});
  std::printf("chooser GE(0.02, 0.3) target 10%%: n=%u k=%u P(retx)=%.4f efficiency %.4f\n", loose.n,
              loose.k, loose.p_retransmit, loose.efficiency);
  EXPECT_GE(loose.efficiency, lossy.efficiency);
  EXPECT_LE(loose.k, lossy.k);
  // A round that idles the path for 600 transmissions is worth repairs the target alone would not
  // buy: at 1 % random loss and n 64 (loose target 0.5) k rises from 1 to at least 4.
  const ChooserBounds free_rounds{64, 64, 16, 2.0, 0.5}, costly_rounds{64, 64, 16, 2.0, 0.5, 600.0};
  const Choice cheap = choose_redundancy({0.01, 0.99}, free_rounds), dear = choose_redundancy({0.01, 0.99}, costly_rounds);
  std::printf("1 %%, n 64: k %u (P %.4f) free, k %u (P %.4f) at 600 a round\n", cheap.k, cheap.p_retransmit, dear.k,
              dear.p_retransmit);
  EXPECT_LE(cheap.k, 1U);
  EXPECT_GE(dear.k, 4U);
}

// repairs_by_size against model_cw, size by size: the smallest k meeting the target within the
// bounds, or the largest allowed k when none does.
TEST(Redundancy, RepairsBySizeIsTheSmallestKMeetingTheTarget) {
  const ChooserBounds b{4, 32, 16, 2.0, 0.02};
  const GeChannel chans[] = {{0.0, 1.0}, {0.1, 0.9}, {0.05, 0.3}, {0.2, 0.5}};
  for (const GeChannel& ch : chans) {
    std::vector<unsigned> out(b.n_max + 1, 99);
    repairs_by_size(ch, b, out);
    EXPECT_EQ(out[0], 0U);
    for (unsigned c = 1; c <= b.n_max; ++c) {
      unsigned want = 0;
      for (unsigned k = 0; k <= b.k_max && c + k <= b.r_max * c + 1e-9; ++k) {
        want = k;
        if (model_cw(ch, c, k).p_retransmit <= b.target_retransmit) break;
      }
      EXPECT_EQ(out[c], want) << "p=" << ch.p << " r=" << ch.r << " c=" << c;
    }
  }
  // 10% random loss (p = 0.1, r = 0.9): two sources need two repairs, since one repair leaves
  // P(retransmission round) at 2.8%.
  std::vector<unsigned> out(b.n_max + 1);
  repairs_by_size({0.1, 0.9}, b, out);
  EXPECT_GT(model_cw({0.1, 0.9}, 2, 1).p_retransmit, 0.02);
  EXPECT_EQ(out[2], 2U);
  EXPECT_EQ(out[1], 1U);
}

// With a round cost, each size takes repairs past its target while one more lowers P(round) by
// more than 1 / round_cost.
TEST(Redundancy, RepairsBySizeBuysRepairsWhileTheySaveRounds) {
  const ChooserBounds b{4, 32, 16, 2.0, 0.25, 300.0};
  const GeChannel chans[] = {{0.0, 1.0}, {0.01, 0.99}, {0.05, 0.3}, {0.2, 0.5}};
  for (const GeChannel& ch : chans) {
    std::vector<unsigned> out(b.n_max + 1, 99);
    repairs_by_size(ch, b, out);
    for (unsigned c = 1; c <= b.n_max; ++c) {
      unsigned want = 0;
      bool met = false;
      for (unsigned k = 0; k <= b.k_max && c + k <= b.r_max * c + 1e-9; ++k) {
        const double p = model_cw(ch, c, k).p_retransmit;
        if (met && (model_cw(ch, c, k - 1).p_retransmit - p) * b.round_cost <= 1.0) break;
        want = k;
        met = met || p <= b.target_retransmit;
      }
      EXPECT_EQ(out[c], want) << "p=" << ch.p << " r=" << ch.r << " c=" << c;
    }
  }
  std::vector<unsigned> free_rounds(b.n_max + 1), costly(b.n_max + 1);
  repairs_by_size({0.05, 0.3}, {4, 32, 16, 2.0, 0.25}, free_rounds);
  repairs_by_size({0.05, 0.3}, b, costly);
  EXPECT_GT(costly[32], free_rounds[32]);
}

// One RedundancyChooser, sized once and reused across channels and bounds, gives bit for bit what
// the free functions give (they build a fresh one per call): no state leaks between calls.
TEST(Redundancy, ReusedChooserEqualsFreeFunctions) {
  RedundancyChooser chooser(64, 24);
  const ChooserBounds bounds[] = {{4, 64, 24, 2.0, 0.02}, {4, 32, 16, 2.0, 0.02}, {8, 16, 4, 1.25, 0.01},
                                  {4, 64, 24, 2.0, 0.25, 400.0}};
  const GeChannel chans[] = {{0.2, 0.5}, {0.0, 1.0}, {0.0175, 0.333}, {0.1, 0.9}, {0.01, 0.99}};
  for (const ChooserBounds& b : bounds)
    for (const GeChannel& ch : chans) {
      const Choice c = chooser.choose(ch, b), f = choose_redundancy(ch, b);
      EXPECT_EQ(c.n, f.n);
      EXPECT_EQ(c.k, f.k);
      EXPECT_EQ(c.p_retransmit, f.p_retransmit);
      EXPECT_EQ(c.efficiency, f.efficiency);
      std::array<unsigned, 65> by_chooser{}, by_free{};
      chooser.repairs_by_size(ch, b, by_chooser);
      repairs_by_size(ch, b, by_free);
      EXPECT_EQ(by_chooser, by_free) << ch.p << " " << ch.r << " n_max " << b.n_max;
      EXPECT_EQ(chooser.model(ch, 40, 9).p_decodable, model_cw(ch, 40, 9).p_decodable);
    }
}

}  // namespace
}  // namespace ncgw::coding
