// Gilbert-Elliott estimation on synthetic Bernoulli and GE sequences with fixed seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "coding/loss_estimator.h"
#include "transports/common/rng.h"

namespace ncgw::coding {
namespace {

using transport::time_from_ns;
using transport::TimePoint;

constexpr std::int64_t kGapNs = 100'000;  // one transmission every 100 us

// A GE loss sequence (stationary start): true = lost.
std::vector<bool> ge_sequence(std::uint64_t seed, double p, double r, std::size_t count) {
  transport::Rng rng(seed);
  std::vector<bool> lost(count);
  bool bad = rng.bernoulli(p / (p + r));
  for (std::size_t i = 0; i < count; ++i) {
    lost[i] = bad;
    bad = bad ? !rng.bernoulli(r) : rng.bernoulli(p);
  }
  return lost;
}

// Feeds outcomes with mild reordering of reports (as ACK processing produces).
void feed(LossEstimator& est, const std::vector<bool>& lost, std::uint64_t first_tx = 0,
          std::int64_t t0 = 0, std::uint64_t seed = 1) {
  transport::Rng rng(seed);
  for (std::size_t i = 0; i < lost.size(); i += 8) {
    std::size_t order[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    for (std::size_t a = 7; a > 0; --a) std::swap(order[a], order[rng.below(a + 1)]);
    for (std::size_t j : order) {
      if (i + j >= lost.size()) continue;
      const std::uint64_t tx = first_tx + i + j;
      const TimePoint sent = time_from_ns(t0 + static_cast<std::int64_t>(i + j) * kGapNs);
      if (lost[i + j]) est.on_lost(tx, sent);
      else est.on_arrived(tx, sent);
    }
  }
}

struct Case { double p, r; std::uint64_t seed; };

TEST(LossEstimator, LongRunAccurateOnBernoulliAndGilbertElliott) {
  const Case cases[] = {
      {0.05, 0.95, 1},  // Bernoulli 5% (p + r = 1)
      {0.01, 0.99, 2},  // Bernoulli 1%
      {0.20, 0.80, 3},  // Bernoulli 20%
      {0.01, 0.25, 4},  // bursts of 4, 3.8% loss
      {0.02, 0.50, 5},  // bursts of 2, 3.8% loss
      {0.005, 0.10, 6}, // bursts of 10, 4.8% loss
  };
  for (const Case& c : cases) {
    LossEstimator est;
    const auto lost = ge_sequence(c.seed, c.p, c.r, 100'000);
    feed(est, lost);
    const GeEstimate g = est.long_run();
    const double e = c.p / (c.p + c.r), burst = 1.0 / c.r;
    std::printf("GE p=%.3f r=%.2f: loss %.4f (true %.4f), burst %.3f (true %.3f), p %.4f r %.3f\n",
                c.p, c.r, g.loss_rate, e, g.mean_burst, burst, g.p, g.r);
    EXPECT_TRUE(g.valid);
    EXPECT_EQ(g.samples, 100'000U);
    EXPECT_NEAR(g.loss_rate, e, 0.005);
    EXPECT_NEAR(g.mean_burst, burst, 0.10 * burst);
    EXPECT_NEAR(g.p / (g.p + g.r), g.loss_rate, 0.002);
  }
}

TEST(LossEstimator, LateArrivalIsNotALoss) {
  const auto lost = ge_sequence(11, 0.02, 0.4, 20'000);
  LossEstimator clean, noisy;
  feed(clean, lost);
  transport::Rng rng(12);
  std::vector<std::size_t> pending;  // declared lost, arriving 50 transmissions later
  auto at = [](std::size_t i) { return time_from_ns(static_cast<std::int64_t>(i) * kGapNs); };
  for (std::size_t i = 0; i < lost.size(); ++i) {
    if (lost[i] || rng.bernoulli(0.05)) noisy.on_lost(i, at(i));
    if (!lost[i]) pending.push_back(i);
    while (!pending.empty() && pending.front() + 50 <= i) {
      noisy.on_arrived(pending.front(), at(pending.front()));
      pending.erase(pending.begin());
    }
  }
  for (std::size_t j : pending) noisy.on_arrived(j, at(j));
  EXPECT_GT(noisy.late_corrections(), 500U);
  const GeEstimate a = clean.long_run(), b = noisy.long_run();
  EXPECT_EQ(a.samples, b.samples);
  EXPECT_EQ(a.transitions, b.transitions);
  EXPECT_DOUBLE_EQ(a.loss_rate, b.loss_rate);
  EXPECT_DOUBLE_EQ(a.p, b.p);
  EXPECT_DOUBLE_EQ(a.r, b.r);
}

TEST(LossEstimator, ShortWindowFollowsAStepWithinItsWindow) {
  LossEstimatorConfig cfg;  // short_count 500: the stated reaction bound is 500 transmissions
  for (std::uint64_t seed = 21; seed < 26; ++seed) {
    LossEstimator est(cfg);
    const auto before = ge_sequence(seed, 0.01, 0.99, 20'000);  // Bernoulli 1%
    feed(est, before);
    TimePoint now = time_from_ns(static_cast<std::int64_t>(before.size()) * kGapNs);
    EXPECT_NEAR(est.short_window(now).loss_rate, 0.01, 0.015);
    const auto after = ge_sequence(seed + 100, 0.10, 0.90, cfg.short_count);  // Bernoulli 10%
    feed(est, after, before.size(), static_cast<std::int64_t>(before.size()) * kGapNs);
    now = time_from_ns(static_cast<std::int64_t>(before.size() + after.size()) * kGapNs);
    const GeEstimate s = est.short_window(now);
    std::printf("step seed %llu: short %.4f after %zu tx, long-run %.4f\n",
                static_cast<unsigned long long>(seed), s.loss_rate, after.size(), est.long_run().loss_rate);
    EXPECT_TRUE(s.valid);
    EXPECT_NEAR(s.loss_rate, 0.10, 0.04);          // +-3 sigma of 500 samples
    EXPECT_LT(est.long_run().loss_rate, 0.03);     // the long-run one has not moved yet
    // current() follows the short window at once (the long-run one lags), and its combined fit is
    // self-consistent: its p and r give back its loss rate.
    const GeEstimate cur = est.current(now);
    EXPECT_DOUBLE_EQ(cur.loss_rate, s.loss_rate);
    EXPECT_NEAR(cur.p / (cur.p + cur.r), cur.loss_rate, 1e-9);
  }
}

// At high rates the last short_count transmissions span a few milliseconds: the short window then
// reaches back short_span, so a plan chosen from it does not follow every lull between bursts.
TEST(LossEstimator, ShortWindowSpansShortSpanAtHighRates) {
  LossEstimatorConfig cfg, count_only;
  count_only.short_span = transport::Duration::zero();  // the last short_count transmissions only
  count_only.short_bursts = 0;
  const std::size_t per_span = static_cast<std::size_t>(cfg.short_span.count() / kGapNs);  // 2500
  const auto lost = ge_sequence(31, 0.0175, 1.0 / 3, 40'000);  // GE 5 %, mean burst 3
  LossEstimator est(cfg), est_count(count_only);
  double sq = 0, sq_count = 0;
  int points = 0;
  for (std::size_t end = 8'000; end <= lost.size(); end += 500) {
    const std::vector<bool> part(lost.begin() + static_cast<std::ptrdiff_t>(end - 500),
                                 lost.begin() + static_cast<std::ptrdiff_t>(end));
    feed(est, part, end - 500, static_cast<std::int64_t>(end - 500) * kGapNs);
    feed(est_count, part, end - 500, static_cast<std::int64_t>(end - 500) * kGapNs);
    if (end < 10'000) continue;
    const TimePoint now = time_from_ns(static_cast<std::int64_t>(end) * kGapNs);
    const GeEstimate s = est.short_window(now), c = est_count.short_window(now);
    EXPECT_EQ(c.samples, cfg.short_count);
    sq += (s.loss_rate - 0.05) * (s.loss_rate - 0.05);
    sq_count += (c.loss_rate - 0.05) * (c.loss_rate - 0.05);
    ++points;
  }
  const double rms = std::sqrt(sq / points), rms_count = std::sqrt(sq_count / points);
  std::printf("GE 5 %%, burst 3: rms error %.4f over %zu tx, %.4f over the last %zu\n", rms, per_span, rms_count,
              cfg.short_count);
  EXPECT_LT(rms, 0.6 * rms_count);
}

// At lower rates 250 ms hold too few losses to plan from: the window reaches back until it holds
// short_bursts loss bursts. 1 % random loss at 4,500 transmissions a second (50 Mbit/s): 250 ms hold
// about 11 losses, and a plan chosen on a low reading of them fails far more often than its bound.
TEST(LossEstimator, ShortWindowHoldsEnoughBurstsAtLowRates) {
  constexpr std::int64_t kSlowGapNs = 222'222;  // 4,500 a second
  LossEstimatorConfig cfg, span_only;
  span_only.short_bursts = 0;  // the last 250 ms (at least 500) only
  const auto lost = ge_sequence(41, 0.01, 0.99, 40'000);
  LossEstimator est(cfg), est_span(span_only);
  double sq = 0, sq_span = 0, lowest = 1;
  int points = 0;
  for (std::size_t i = 0; i < lost.size(); ++i) {
    const TimePoint sent = time_from_ns(static_cast<std::int64_t>(i) * kSlowGapNs);
    for (LossEstimator* e : {&est, &est_span}) {
      if (lost[i]) e->on_lost(i, sent);
      else e->on_arrived(i, sent);
    }
    if (i < 10'000 || i % 500 != 0) continue;
    const TimePoint now = time_from_ns(static_cast<std::int64_t>(i + 1) * kSlowGapNs);
    const GeEstimate s = est.short_window(now), w = est_span.short_window(now);
    EXPECT_GE(s.loss_rate * static_cast<double>(s.samples), 40.0);  // at least 40 losses (bursts of 1)
    sq += (s.loss_rate - 0.01) * (s.loss_rate - 0.01);
    sq_span += (w.loss_rate - 0.01) * (w.loss_rate - 0.01);
    lowest = std::min(lowest, s.loss_rate);
    ++points;
  }
  const double rms = std::sqrt(sq / points), rms_span = std::sqrt(sq_span / points);
  std::printf("1 %% at 4,500/s: rms error %.4f with 40 bursts, %.4f over 250 ms; lowest reading %.4f\n", rms,
              rms_span, lowest);
  EXPECT_LT(rms, 0.6 * rms_span);
  EXPECT_GT(lowest, 0.006);
}

// A lull in the last short_count transmissions does not read as a loss-free path; a step up that is
// well outside the longer window's noise does show at once (ShortWindowFollowsAStepWithinItsWindow).
TEST(LossEstimator, ALullInTheLastFewTransmissionsIsNotTakenForTheRate) {
  LossEstimator est;
  std::vector<bool> lost(3'000, false);
  for (std::size_t i = 0; i < 2'500; i += 20) lost[i] = true;  // 5 %, then 500 arrivals
  feed(est, lost);
  const GeEstimate s = est.short_window(time_from_ns(3'000 * kGapNs));
  EXPECT_EQ(s.samples, 2'500u);  // tx 500..2999, sent in the 250 ms up to now, not the last 500 only
  EXPECT_NEAR(s.loss_rate, 100.0 / 2'500, 1e-9);
}

TEST(LossEstimator, IdleTimeDoesNotPoisonTheEstimates) {
  LossEstimator est;
  const auto first = ge_sequence(31, 0.01, 0.25, 10'000);
  feed(est, first);
  const GeEstimate before = est.long_run();
  // 30 s of silence, then traffic resumes: the first packet after idle is lost, as was the last
  const std::int64_t resume = static_cast<std::int64_t>(first.size()) * kGapNs + 30'000'000'000LL;
  const TimePoint now = time_from_ns(resume);
  const GeEstimate idle_short = est.short_window(now);
  EXPECT_FALSE(idle_short.valid);  // nothing recent: no claim of 0% loss
  EXPECT_EQ(est.current(now).loss_rate, before.loss_rate);  // the chooser falls back to long-run
  est.on_lost(first.size() - 1 + 1, now);
  const GeEstimate after = est.long_run();
  EXPECT_EQ(after.samples, before.samples + 1);
  EXPECT_EQ(after.transitions, before.transitions);  // no transition across the idle gap
}

TEST(LossEstimator, OutcomesOlderThanHistoryAreIgnored) {
  LossEstimatorConfig cfg;
  cfg.history = 64;
  LossEstimator est(cfg);
  for (std::uint64_t i = 0; i < 200; ++i) est.on_arrived(i, time_from_ns(static_cast<std::int64_t>(i) * kGapNs));
  est.on_lost(10, time_from_ns(10 * kGapNs));
  EXPECT_EQ(est.too_late(), 1U);
  EXPECT_EQ(est.long_run().loss_rate, 0.0);
}

}  // namespace
}  // namespace ncgw::coding
