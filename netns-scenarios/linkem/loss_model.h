// Loss processes of one link direction: Bernoulli, Gilbert-Elliott, deterministic pattern.
// Pure: the caller passes the RNG stream and the frame's ordinal at the loss stage.
#pragma once
#include <cstdint>

#include "netns-scenarios/linkem/settings.h"
#include "transports/common/rng.h"

namespace linkem {

// Stateful loss decision (the Gilbert-Elliott chain keeps its state across frames).
class LossModel {
 public:
  // Replaces the parameters; the Gilbert chain keeps its current state.
  void configure(const LossSettings& s) { s_ = s; }
  // Decides whether frame number `ordinal` (1-based) is lost, drawing from `rng`.
  bool lose(ncgw::transport::Rng& rng, std::uint64_t ordinal);
  // True while the Gilbert-Elliott chain is in its bad state.
  bool in_bad_state() const { return bad_; }

 private:
  // Pattern membership of `ordinal`.
  bool in_pattern(std::uint64_t ordinal) const;

  LossSettings s_;
  bool bad_ = false;
};

}  // namespace linkem
