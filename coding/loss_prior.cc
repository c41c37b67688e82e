// Pooling of an observed Gilbert-Elliott fit with a prior channel.
#include "coding/loss_prior.h"

#include <algorithm>

namespace ncgw::coding {

GeEstimate with_prior(const GeEstimate& observed, std::uint64_t evidence, const LossPrior& prior) {
  const double n = static_cast<double>(evidence), w = std::max(0.0, prior.weight);
  if (w <= 0) return observed;
  const double e = n > 0 ? observed.loss_rate : 0.0, e0 = std::clamp(prior.loss_rate, 0.0, 0.999);
  const double r0 = 1.0 / std::max(1.0, prior.mean_burst);
  const double p0 = e0 * r0 / (1.0 - e0);
  // Transmissions in each state, observed and prior, and the transitions out of it.
  const double good_n = n * (1 - e), good_w = w * (1 - e0);
  const double bad_n = n * e, bad_w = w * e0;
  GeEstimate g = observed;
  g.p = (observed.p * good_n + p0 * good_w) / (good_n + good_w);
  g.r = bad_n + bad_w > 0 ? (observed.r * bad_n + r0 * bad_w) / (bad_n + bad_w) : 1.0;
  g.loss_rate = (e * n + e0 * w) / (n + w);
  g.mean_burst = 1.0 / g.r;
  g.valid = true;
  return g;
}

}  // namespace ncgw::coding
