// Loss processes of one link direction.
#include "netns-scenarios/linkem/loss_model.h"

namespace linkem {

bool LossModel::lose(ncgw::transport::Rng& rng, std::uint64_t ordinal) {
  switch (s_.kind) {
    case LossKind::none:
      return false;
    case LossKind::bernoulli:
      return rng.bernoulli(s_.rate);
    case LossKind::gilbert:
      // Transition first, then draw the loss of the state the frame meets.
      bad_ = bad_ ? !rng.bernoulli(s_.r) : rng.bernoulli(s_.p);
      return rng.bernoulli(bad_ ? s_.loss_bad : s_.loss_good);
    case LossKind::pattern:
      return in_pattern(ordinal);
  }
  return false;
}

bool LossModel::in_pattern(std::uint64_t ordinal) const {
  std::uint64_t o = ordinal;
  if (s_.period) o = (ordinal - 1) % s_.period + 1;
  for (const auto& r : s_.ranges)
    if (o >= r.first && o <= r.last) return true;
  return false;
}

}  // namespace linkem
