// The redundancy model (paper 002, section 2.1; docs/tcpnc-mechanism.md "Online adaptation"): the exact
// probability that a CW of n systematic sources followed by k seeded repairs reaches rank n without
// retransmission over a Gilbert-Elliott channel, and the chooser of (n, k).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ncgw::coding {

// Gilbert-Elliott chain per transmission: p = P(good -> bad), r = P(bad -> good); a transmission
// in the bad state is lost. The first transmission of a CW starts from the stationary law.
struct GeChannel {
  double p = 0.0;  // 0 <= p <= 1
  double r = 1.0;  // 0 < r <= 1
};

// Outcome law of one CW (n sources sent first, then k repairs, back to back on the chain).
struct CwModel {
  double p_decodable = 1.0;   // P(rank n reached by the n + k transmissions), exact
  double p_retransmit = 0.0;  // 1 - p_decodable: P(a coded retransmission round is needed)
  double expected_missing = 0.0;  // E[missing DoF after the n + k transmissions] (rank deficiency
                                  // of the repair matrix approximated by its full-rank law)
};

// Exact P(decodable) by dynamic programming over (position, sources lost, repairs received,
// chain state), times the probability that the received repairs restricted to the lost sources
// have full rank over GF(2^8) with uniform coefficients: prod_{i<d} (1 - 256^(i-j)).
// With field_rank == false the rank term is taken as 1 (any j >= d repairs suffice, MDS-like).
CwModel model_cw(const GeChannel& ch, unsigned n, unsigned k, bool field_rank = true);

// P(a random j x d matrix with iid uniform GF(2^8) entries has rank d) (0 if j < d, 1 if d == 0).
double full_rank_probability(unsigned j, unsigned d);

// Bounds the chooser works within.
struct ChooserBounds {
  unsigned n_min = 4;           // smallest CW
  unsigned n_max = 32;          // largest CW (delay budget)
  unsigned k_max = 16;          // most repairs per CW
  double r_max = 2.0;           // largest redundancy factor R = (n + k) / n
  double target_retransmit = 0.02;  // wanted bound on P(a CW needs a retransmission round)
  // Transmissions' worth of capacity a retransmission round costs beyond its retransmissions (0:
  // only those, as in paper 002's model). A round holds in-order delivery, and with it the end
  // hosts' ACK clock, for about a round trip; hosts whose window is about one BDP leave the path
  // idle for that long. The chooser then adds repairs while one more saves more than it costs.
  double round_cost = 0.0;
};

// The chooser's answer.
struct Choice {
  unsigned n = 0, k = 0;        // chosen CW size and repairs
  double p_retransmit = 0.0;    // model's P(retransmission round) for (n, k)
  // Predicted efficiency: n / E[transmissions per CW], with E = n + k + E[missing] / (1 - e)
  // (missing DoF repaired by retransmissions that are lost at the average rate e) + P(round) x
  // round_cost.
  double efficiency = 0.0;
  double limit = 1.0;           // erasure-channel limit 1 - e
  bool target_met = false;      // p_retransmit <= target_retransmit
};

// Returns, within `b`, the (n, k) of highest predicted efficiency among those meeting the target
// (ties: smaller n, then smaller k); if none meets it, the pair with the smallest p_retransmit.
// With a round_cost, a k beyond what the target needs wins where its repairs cost less than the
// rounds they save.
// Cost O((n_max - n_min + 1) n_max k_max); call it when the estimate changes, not per packet.
Choice choose_redundancy(const GeChannel& ch, const ChooserBounds& b);

// Repairs for CWs that close before they reach the chosen n (a flush when input pauses): writes to
// out[c], for every size c < out.size() (c <= n_max), the smallest k (k <= k_max, c + k <= r_max c)
// whose P(retransmission round) meets b.target_retransmit, or the largest such k if none does;
// out[0] = 0. With a round_cost, k grows past the target while one more repair lowers P(round) by
// more than 1 / round_cost. Scaling the chosen k by c / n instead under-protects small CWs (at 10% loss, 2 sources
// with 1 repair fail 2.8% of the time) and each failed CW costs the tunnel a congestion event.
// Cost O(n_max^2 k_max) at worst (a size leaves the loop once its target is met); call it with
// choose_redundancy, not per packet.
void repairs_by_size(const GeChannel& ch, const ChooserBounds& b, std::span<unsigned> out);

// The chooser with its working memory allocated once, for bounds up to (n_cap, k_cap): the same
// results as choose_redundancy / repairs_by_size (same arithmetic, same order), with no allocation
// per call, so a sender can re-choose on its send path. The GF(2^8) full-rank table is built in the
// constructor. Bounds beyond the capacity are clamped to it.
class RedundancyChooser {
 public:
  // Allocates the DP tables for n <= n_cap, k <= k_cap.
  RedundancyChooser(unsigned n_cap, unsigned k_cap);
  // choose_redundancy(ch, b), allocation-free.
  Choice choose(const GeChannel& ch, const ChooserBounds& b);
  // repairs_by_size(ch, b, out), allocation-free.
  void repairs_by_size(const GeChannel& ch, const ChooserBounds& b, std::span<unsigned> out);
  // model_cw(ch, n, k, field_rank), allocation-free.
  CwModel model(const GeChannel& ch, unsigned n, unsigned k, bool field_rank = true);

 private:
  // Fills the source and repair laws for n <= n_max, k <= k_max on `ch`; returns its loss rate.
  double prepare(const GeChannel& ch, unsigned n_max, unsigned k_max);
  // Fills success_/missing_ for k repairs (both start states) and loss counts d <= n_max.
  void weigh(unsigned k, unsigned n_max, bool field_rank);
  // P(decodable) and E[missing] of (n, k) from the prepared tables (weigh(k) done).
  CwModel combine(unsigned n) const;
  double src(unsigned i, unsigned d, unsigned s) const { return src_[i * src_row_ + 2 * d + s]; }
  double rep(unsigned s0, unsigned k, unsigned j) const { return rep_[(s0 * (k_cap_ + 1) + k) * (k_cap_ + 1) + j]; }
  double full_rank(unsigned j, unsigned d) const { return f_[j * (n_cap_ + 1) + d]; }

  unsigned n_cap_, k_cap_;
  std::size_t src_row_;               // doubles per source-law row: 2 (n_cap + 1)
  std::vector<double> src_;           // P_i(d, s), i <= n_cap
  std::vector<double> rep_;           // Q_{s0,k}(j), k <= k_cap, j <= k
  std::vector<double> cur_, next_;    // repair DP rows: [j * 2 + s]
  std::vector<double> f_;             // F(j, d), j <= k_cap, d <= n_cap
  std::vector<double> success_, missing_;  // [s * (n_cap + 1) + d] for the k being weighed
  std::vector<double> prefix_q_, prefix_jq_, suffix_q_;  // weigh(): sums of Q_{s,k}(j) over j
  std::vector<double> prev_eff_;      // choose(): efficiency of each n at the previous k;
                                      // repairs_by_size(): P(round) of each size at its k
  std::vector<char> met_;             // repairs_by_size: size c met its target (1) or settled (2)
};

}  // namespace ncgw::coding
