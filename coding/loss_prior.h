// What the redundancy chooser assumes of the loss before the estimator has seen much: a prior
// Gilbert-Elliott channel worth a fixed number of transmissions, pooled with what was observed.
// A fresh estimate from a hundred transmissions says little (no loss among the first 100 of a
// 1 % channel happens a third of the time), yet the first coding windows of a session carry the
// end hosts' first round trips, where a retransmission round costs the most: it holds their
// ACKs for a round trip, which Linux's HyStart reads as a full path and ends slow start on.
// The prior's weight fades as evidence accrues (about weight x loss_rate / N after N clean
// transmissions).
#pragma once
#include <cstdint>

#include "coding/loss_estimator.h"

namespace ncgw::coding {

// A prior channel and how many transmissions it counts for.
struct LossPrior {
  double loss_rate = 0.05;  // stationary loss rate e0
  double mean_burst = 2.0;  // mean burst length b0 (r0 = 1 / b0)
  double weight = 50;       // transmissions the prior counts for; 0: no prior
};

// The estimate `observed` (its p, r and loss rate) pooled with `prior`, the observed side counting
// for `evidence` transmissions (all resolved so far, so that a short window's fit is not
// outweighed when much more has been seen). Transition counts are pooled per state: the good
// state's p over good-state transmissions, the bad state's r over bad-state ones. Valid when
// either side carries weight.
GeEstimate with_prior(const GeEstimate& observed, std::uint64_t evidence, const LossPrior& prior);

}  // namespace ncgw::coding
