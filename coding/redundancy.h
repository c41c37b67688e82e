// The redundancy model (paper 002, section 2.1; notes/tcpnc.md "Online adaptation"): the exact
// probability that a CW of n systematic sources followed by k seeded repairs reaches rank n without
// retransmission over a Gilbert-Elliott channel, and the chooser of (n, k).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

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
};

// The chooser's answer.
struct Choice {
  unsigned n = 0, k = 0;        // chosen CW size and repairs
  double p_retransmit = 0.0;    // model's P(retransmission round) for (n, k)
  // Predicted efficiency: n / E[transmissions per CW], with E = n + k + E[missing] / (1 - e)
  // (missing DoF repaired by retransmissions that are lost at the average rate e).
  double efficiency = 0.0;
  double limit = 1.0;           // erasure-channel limit 1 - e
  bool target_met = false;      // p_retransmit <= target_retransmit
};

// Returns, within `b`, the (n, k) of highest predicted efficiency among those meeting the target
// (ties: smaller n, then smaller k); if none meets it, the pair with the smallest p_retransmit.
// Cost O(n_max^2 k_max) with early exits; call it when the estimate changes, not per packet.
Choice choose_redundancy(const GeChannel& ch, const ChooserBounds& b);

// Repairs for CWs that close before they reach the chosen n (a flush when input pauses): writes to
// out[c], for every size c < out.size() (c <= n_max), the smallest k (k <= k_max, c + k <= r_max c)
// whose P(retransmission round) meets b.target_retransmit, or the largest such k if none does;
// out[0] = 0. Scaling the chosen k by c / n instead under-protects small CWs (at 10% loss, 2 sources
// with 1 repair fail 2.8% of the time) and each failed CW costs the tunnel a congestion event.
// Same cost as choose_redundancy; call it with it, not per packet.
void repairs_by_size(const GeChannel& ch, const ChooserBounds& b, std::span<unsigned> out);

}  // namespace ncgw::coding
