// Exact decoding model over a Gilbert-Elliott chain, and the (n, k) chooser (RedundancyChooser:
// tables allocated once; the free functions build one per call).
//
// Factorisation of the DP over (position, sources lost, repairs received, state): the n sources
// give P_n(d, s) = P(d of them lost, last one in state s); the k repairs that follow, started from
// state s, give Q_{s,k}(j) = P(j repairs received). Then
//   P(decodable) = sum_{d,s} P_n(d, s) sum_j Q_{s,k}(j) F(j, d),
// with F(j, d) the probability that j uniform random repair rows restricted to the d lost
// columns have rank d. This is the same sum as the plain DP, computed once for all (n, k).
#include "coding/redundancy.h"

#include <algorithm>
#include <cmath>

namespace ncgw::coding {
namespace {

// State index: 0 good (arrives), 1 bad (lost).
struct Chain {
  double t[2][2];  // t[s][s'] = P(next state s' | state s)
  double pi_bad;   // stationary P(bad)
  explicit Chain(const GeChannel& ch) {
    const double p = std::clamp(ch.p, 0.0, 1.0), r = std::clamp(ch.r, 1e-12, 1.0);
    t[0][0] = 1 - p; t[0][1] = p; t[1][0] = r; t[1][1] = 1 - r;
    pi_bad = p / (p + r);
  }
};

}  // namespace

double full_rank_probability(unsigned j, unsigned d) {
  if (d == 0) return 1.0;
  if (j < d) return 0.0;
  double prob = 1.0;
  for (unsigned i = 0; i < d; ++i) prob *= 1.0 - std::pow(256.0, static_cast<double>(i) - j);
  return prob;
}

RedundancyChooser::RedundancyChooser(unsigned n_cap, unsigned k_cap)
    : n_cap_(std::max(n_cap, 1U)), k_cap_(k_cap), src_row_(2 * (n_cap_ + 1)),
      src_((n_cap_ + 1) * src_row_), rep_(2 * (k_cap_ + 1) * (k_cap_ + 1)), cur_(2 * (k_cap_ + 1)),
      next_(2 * (k_cap_ + 1)), f_((k_cap_ + 1) * (n_cap_ + 1)), success_(2 * (n_cap_ + 1)),
      missing_(2 * (n_cap_ + 1)), prefix_q_(k_cap_ + 2), prefix_jq_(k_cap_ + 2), suffix_q_(k_cap_ + 2),
      prev_eff_(n_cap_ + 1), met_(n_cap_ + 1) {
  for (unsigned j = 0; j <= k_cap_; ++j) {  // full_rank_probability(j, d), one factor per step in d
    double prob = 1.0;
    for (unsigned d = 0; d <= n_cap_; ++d) {
      f_[j * (n_cap_ + 1) + d] = j < d ? 0.0 : prob;
      prob *= 1.0 - std::pow(256.0, static_cast<double>(d) - j);
    }
  }
}

double RedundancyChooser::prepare(const GeChannel& ch, unsigned n_max, unsigned k_max) {
  const Chain c(ch);
  // P_i(d, s) for i <= n_max sources; P_0 is the stationary law of the state before the CW.
  std::fill(src_.begin(), src_.begin() + static_cast<long>((n_max + 1) * src_row_), 0.0);
  src_[0] = 1 - c.pi_bad;
  src_[1] = c.pi_bad;
  for (unsigned i = 1; i <= n_max; ++i)
    for (unsigned d = 0; d < i; ++d)
      for (unsigned s = 0; s < 2; ++s) {
        const double w = src_[(i - 1) * src_row_ + 2 * d + s];
        if (w == 0) continue;
        src_[i * src_row_ + 2 * d + 0] += w * c.t[s][0];
        src_[i * src_row_ + 2 * (d + 1) + 1] += w * c.t[s][1];
      }
  // Q_{s0,k}(j) for k <= k_max, started from the state s0 of the last source.
  for (unsigned s0 = 0; s0 < 2; ++s0) {
    std::fill(cur_.begin(), cur_.end(), 0.0);
    cur_[s0] = 1.0;
    for (unsigned k = 0; k <= k_max; ++k) {
      double* row = &rep_[(s0 * (k_cap_ + 1) + k) * (k_cap_ + 1)];
      for (unsigned j = 0; j <= k; ++j) row[j] = cur_[2 * j] + cur_[2 * j + 1];
      if (k == k_max) break;
      std::fill(next_.begin(), next_.end(), 0.0);
      for (unsigned j = 0; j <= k; ++j)
        for (unsigned s = 0; s < 2; ++s) {
          const double w = cur_[2 * j + s];
          next_[2 * (j + 1) + 0] += w * c.t[s][0];
          next_[2 * j + 1] += w * c.t[s][1];
        }
      cur_.swap(next_);
    }
  }
  return c.pi_bad;
}

void RedundancyChooser::weigh(unsigned k, unsigned n_max, bool field_rank) {
  // For j >= d + kRankWindow repairs, 1 - F(j, d) < 256^-kRankWindow (below a double's resolution
  // next to 1): F is 1 there and the sum over j is a suffix sum. Below d repairs the CW misses
  // d - j DoF, a prefix sum. So each d costs O(kRankWindow) instead of O(k).
  constexpr unsigned kRankWindow = 8;
  const std::size_t row = n_cap_ + 1;
  for (unsigned s = 0; s < 2; ++s) {
    // prefix_q_[j] = sum_{i<j} Q(i), prefix_jq_[j] = sum_{i<j} i Q(i), suffix_q_[j] = sum_{i>=j} Q(i).
    prefix_q_[0] = prefix_jq_[0] = 0.0;
    for (unsigned j = 0; j <= k; ++j) {
      prefix_q_[j + 1] = prefix_q_[j] + rep(s, k, j);
      prefix_jq_[j + 1] = prefix_jq_[j] + j * rep(s, k, j);
    }
    suffix_q_[k + 1] = 0.0;
    for (unsigned j = k + 1; j-- > 0;) suffix_q_[j] = suffix_q_[j + 1] + rep(s, k, j);
    for (unsigned d = 0; d <= n_max; ++d) {
      const unsigned below = std::min(d, k + 1);  // repairs counts j < d that occur (j <= k)
      double success = 0.0;
      double missing = d * prefix_q_[below] - prefix_jq_[below];
      if (d <= k) {
        const unsigned window_end = field_rank ? std::min(k + 1, d + kRankWindow) : d;
        for (unsigned j = d; j < window_end; ++j) {
          const double q = rep(s, k, j), f = full_rank(j, d);
          success += q * f;
          missing += q * (1.0 - f);
        }
        success += suffix_q_[window_end];
      }
      success_[s * row + d] = success;
      missing_[s * row + d] = missing;
    }
  }
}

CwModel RedundancyChooser::combine(unsigned n) const {
  const std::size_t row = n_cap_ + 1;
  CwModel m{0.0, 0.0, 0.0};
  for (unsigned d = 0; d <= n; ++d)
    for (unsigned s = 0; s < 2; ++s) {
      const double pr = src(n, d, s);
      m.p_decodable += pr * success_[s * row + d];
      m.expected_missing += pr * missing_[s * row + d];
    }
  m.p_decodable = std::clamp(m.p_decodable, 0.0, 1.0);
  m.p_retransmit = 1.0 - m.p_decodable;
  return m;
}

CwModel RedundancyChooser::model(const GeChannel& ch, unsigned n, unsigned k, bool field_rank) {
  n = std::clamp(n, 0U, n_cap_);
  k = std::min(k, k_cap_);
  prepare(ch, n, k);
  weigh(k, n, field_rank);
  return combine(n);
}

Choice RedundancyChooser::choose(const GeChannel& ch, const ChooserBounds& b) {
  const unsigned n_max = std::min(std::max(b.n_max, 1U), n_cap_), n_min = std::clamp(b.n_min, 1U, n_max);
  const unsigned k_max = std::min(b.k_max, k_cap_);
  const double e = prepare(ch, n_max, k_max), limit = 1.0 - e;
  Choice best;
  bool have = false;
  std::fill(prev_eff_.begin(), prev_eff_.end(), -1.0);
  for (unsigned k = 0; k <= k_max; ++k) {
    weigh(k, n_max, true);
    // For each n, P(round) falls with k and the efficiency n / (n + k + E[missing] / (1 - e)) is
    // quasi-concave in k (E[missing] is convex): once every n meets the target and has passed its
    // peak, no larger k can win.
    bool past_peak = true;
    for (unsigned n = n_min; n <= n_max; ++n) {
      if (static_cast<double>(n + k) > b.r_max * n + 1e-9) continue;
      const CwModel m = combine(n);
      Choice cand{n, k, m.p_retransmit, 0.0, limit, m.p_retransmit <= b.target_retransmit};
      const double tx = n + k + (limit > 0 ? m.expected_missing / limit : 1e300) + m.p_retransmit * b.round_cost;
      cand.efficiency = static_cast<double>(n) / tx;
      past_peak = past_peak && cand.target_met && cand.efficiency < prev_eff_[n];
      prev_eff_[n] = cand.efficiency;
      const bool better =
          !have || (cand.target_met != best.target_met ? cand.target_met
                    : cand.target_met ? (cand.efficiency > best.efficiency + 1e-12 ||
                                         (std::abs(cand.efficiency - best.efficiency) <= 1e-12 &&
                                          (n < best.n || (n == best.n && k < best.k))))
                                      : cand.p_retransmit < best.p_retransmit - 1e-15);
      if (better) { best = cand; have = true; }
    }
    if (have && past_peak) break;
  }
  return best;
}

void RedundancyChooser::repairs_by_size(const GeChannel& ch, const ChooserBounds& b, std::span<unsigned> out) {
  if (out.empty()) return;
  const unsigned n_max = std::min({std::max(b.n_max, 1U), static_cast<unsigned>(out.size() - 1), n_cap_});
  const unsigned k_max = std::min(b.k_max, k_cap_);
  prepare(ch, n_max, k_max);
  std::fill(out.begin(), out.end(), 0U);
  std::fill(met_.begin(), met_.end(), 0);
  constexpr char kMet = 1, kSettled = 2;
  met_[0] = kSettled;
  for (unsigned k = 0; k <= k_max; ++k) {
    weigh(k, n_max, true);
    bool all_settled = true;  // every size settled or reached its r_max bound
    for (unsigned n = 1; n <= n_max; ++n) {
      if (met_[n] == kSettled || static_cast<double>(n + k) > b.r_max * n + 1e-9) continue;
      const double p = combine(n).p_retransmit;
      // Past the target, one more repair is worth it only while it saves more than it costs.
      if (met_[n] == kMet && (prev_eff_[n] - p) * b.round_cost <= 1.0) {
        met_[n] = kSettled;
        continue;
      }
      out[n] = k;  // the largest allowed k so far: kept if the target is never met
      prev_eff_[n] = p;
      if (p <= b.target_retransmit) met_[n] = b.round_cost > 0 ? kMet : kSettled;
      all_settled = all_settled && met_[n] == kSettled;
    }
    if (all_settled) break;
  }
}

CwModel model_cw(const GeChannel& ch, unsigned n, unsigned k, bool field_rank) {
  return RedundancyChooser(n, k).model(ch, n, k, field_rank);
}

Choice choose_redundancy(const GeChannel& ch, const ChooserBounds& b) {
  return RedundancyChooser(std::max(b.n_max, 1U), b.k_max).choose(ch, b);
}

void repairs_by_size(const GeChannel& ch, const ChooserBounds& b, std::span<unsigned> out) {
  if (out.empty()) return;
  RedundancyChooser(std::min<unsigned>(std::max(b.n_max, 1U), static_cast<unsigned>(out.size() - 1)), b.k_max)
      .repairs_by_size(ch, b, out);
}

}  // namespace ncgw::coding
