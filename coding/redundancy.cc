// Exact decoding model over a Gilbert-Elliott chain, and the (n, k) chooser.
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
#include <vector>

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

// P_i(d, s) for i = 0..n_max sources: src[i][d * 2 + s]. P_0 is a point mass "before" the CW,
// represented by the stationary law of the state preceding the first packet.
std::vector<std::vector<double>> source_dp(const Chain& c, unsigned n_max) {
  std::vector<std::vector<double>> out(n_max + 1, std::vector<double>(2 * (n_max + 1), 0.0));
  out[0][0] = 1 - c.pi_bad;  // the state before the first source is stationary too
  out[0][1] = c.pi_bad;
  for (unsigned i = 1; i <= n_max; ++i)
    for (unsigned d = 0; d < i; ++d)
      for (unsigned s = 0; s < 2; ++s) {
        const double w = out[i - 1][2 * d + s];
        if (w == 0) continue;
        out[i][2 * d + 0] += w * c.t[s][0];
        out[i][2 * (d + 1) + 1] += w * c.t[s][1];
      }
  return out;
}

// Q_{s,k}(j) for k = 0..k_max: rep[s][k][j] (start state s = state of the last source).
std::vector<std::vector<std::vector<double>>> repair_dp(const Chain& c, unsigned k_max) {
  std::vector<std::vector<std::vector<double>>> rep(2, std::vector<std::vector<double>>(k_max + 1));
  for (unsigned s0 = 0; s0 < 2; ++s0) {
    std::vector<double> cur(2 * (k_max + 1), 0.0);  // cur[j * 2 + s]
    cur[s0] = 1.0;
    for (unsigned k = 0; k <= k_max; ++k) {
      rep[s0][k].assign(k + 1, 0.0);
      for (unsigned j = 0; j <= k; ++j) rep[s0][k][j] = cur[2 * j] + cur[2 * j + 1];
      if (k == k_max) break;
      std::vector<double> next(2 * (k_max + 1), 0.0);
      for (unsigned j = 0; j <= k; ++j)
        for (unsigned s = 0; s < 2; ++s) {
          const double w = cur[2 * j + s];
          next[2 * (j + 1) + 0] += w * c.t[s][0];
          next[2 * j + 1] += w * c.t[s][1];
        }
      cur.swap(next);
    }
  }
  return rep;
}

// F(j, d) for j <= j_max, d <= d_max: full_rank_probability, tabulated once per call.
class FullRankTable {
 public:
  FullRankTable(unsigned j_max, unsigned d_max) : d_max_(d_max), f_((j_max + 1) * (d_max + 1)) {
    for (unsigned j = 0; j <= j_max; ++j)
      for (unsigned d = 0; d <= d_max; ++d) f_[j * (d_max + 1) + d] = full_rank_probability(j, d);
  }
  double operator()(unsigned j, unsigned d) const { return f_[j * (d_max_ + 1) + d]; }

 private:
  unsigned d_max_;
  std::vector<double> f_;
};

// Success and missing-DoF weights of (k repairs from state s) for each loss count d <= n_max.
struct RepairWeights {
  std::vector<double> success, missing;  // indexed by d
};

RepairWeights weights(const std::vector<double>& q, unsigned n_max, bool field_rank,
                      const FullRankTable& table) {
  RepairWeights w{std::vector<double>(n_max + 1, 0.0), std::vector<double>(n_max + 1, 0.0)};
  for (unsigned d = 0; d <= n_max; ++d)
    for (unsigned j = 0; j < q.size(); ++j) {
      const double f = field_rank ? table(j, d) : (j >= d ? 1.0 : 0.0);
      w.success[d] += q[j] * f;
      w.missing[d] += q[j] * (j < d ? static_cast<double>(d - j) : 1.0 - f);
    }
  return w;
}

// Combines the source law of n with the repair weights of k.
CwModel combine(const std::vector<double>& src, unsigned n, const RepairWeights w[2]) {
  CwModel m{0.0, 0.0, 0.0};
  for (unsigned d = 0; d <= n; ++d)
    for (unsigned s = 0; s < 2; ++s) {
      const double pr = src[2 * d + s];
      m.p_decodable += pr * w[s].success[d];
      m.expected_missing += pr * w[s].missing[d];
    }
  m.p_decodable = std::clamp(m.p_decodable, 0.0, 1.0);
  m.p_retransmit = 1.0 - m.p_decodable;
  return m;
}

}  // namespace

double full_rank_probability(unsigned j, unsigned d) {
  if (d == 0) return 1.0;
  if (j < d) return 0.0;
  double prob = 1.0;
  for (unsigned i = 0; i < d; ++i) prob *= 1.0 - std::pow(256.0, static_cast<double>(i) - j);
  return prob;
}

CwModel model_cw(const GeChannel& ch, unsigned n, unsigned k, bool field_rank) {
  const Chain c(ch);
  const auto src = source_dp(c, n);
  const auto rep = repair_dp(c, k);
  const FullRankTable table(k, n);
  const RepairWeights w[2] = {weights(rep[0][k], n, field_rank, table),
                              weights(rep[1][k], n, field_rank, table)};
  return combine(src[n], n, w);
}

Choice choose_redundancy(const GeChannel& ch, const ChooserBounds& b) {
  const Chain c(ch);
  const unsigned n_max = std::max(b.n_max, 1U), n_min = std::clamp(b.n_min, 1U, n_max);
  const auto src = source_dp(c, n_max);
  const auto rep = repair_dp(c, b.k_max);
  const double e = c.pi_bad, limit = 1.0 - e;
  Choice best;
  bool have = false;
  const FullRankTable table(b.k_max, n_max);
  for (unsigned k = 0; k <= b.k_max; ++k) {
    const RepairWeights w[2] = {weights(rep[0][k], n_max, true, table),
                                weights(rep[1][k], n_max, true, table)};
    for (unsigned n = n_min; n <= n_max; ++n) {
      if (static_cast<double>(n + k) > b.r_max * n + 1e-9) continue;
      const CwModel m = combine(src[n], n, w);
      Choice cand{n, k, m.p_retransmit, 0.0, limit, m.p_retransmit <= b.target_retransmit};
      const double tx = n + k + (limit > 0 ? m.expected_missing / limit : 1e300);
      cand.efficiency = static_cast<double>(n) / tx;
      const bool better =
          !have || (cand.target_met != best.target_met ? cand.target_met
                    : cand.target_met ? (cand.efficiency > best.efficiency + 1e-12 ||
                                         (std::abs(cand.efficiency - best.efficiency) <= 1e-12 &&
                                          (n < best.n || (n == best.n && k < best.k))))
                                      : cand.p_retransmit < best.p_retransmit - 1e-15);
      if (better) { best = cand; have = true; }
    }
  }
  return best;
}

void repairs_by_size(const GeChannel& ch, const ChooserBounds& b, std::span<unsigned> out) {
  if (out.empty()) return;
  const Chain c(ch);
  const unsigned n_max = std::min<unsigned>(std::max(b.n_max, 1U), static_cast<unsigned>(out.size() - 1));
  const auto src = source_dp(c, n_max);
  const auto rep = repair_dp(c, b.k_max);
  const FullRankTable table(b.k_max, n_max);
  std::vector<bool> met(n_max + 1, false);
  std::fill(out.begin(), out.end(), 0U);
  met[0] = true;
  for (unsigned k = 0; k <= b.k_max; ++k) {
    const RepairWeights w[2] = {weights(rep[0][k], n_max, true, table),
                                weights(rep[1][k], n_max, true, table)};
    for (unsigned n = 1; n <= n_max; ++n) {
      if (met[n] || static_cast<double>(n + k) > b.r_max * n + 1e-9) continue;
      out[n] = k;  // the largest allowed k so far: kept if the target is never met
      met[n] = combine(src[n], n, w).p_retransmit <= b.target_retransmit;
    }
  }
}

}  // namespace ncgw::coding
