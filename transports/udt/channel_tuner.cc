#include "transports/udt/channel_tuner.h"

#include <algorithm>
#include <cmath>

namespace ncgw::udt {

unsigned opcn_channels(double rtt_ms, unsigned min_channels, unsigned max_channels) {
  const double opcn = 2.0038 * std::log(std::max(rtt_ms, 0.01)) + 4.3746;
  const long rounded = std::lround(opcn);
  return static_cast<unsigned>(std::clamp<long>(rounded, min_channels, max_channels));
}

ActTuner::ActTuner(const ActTunerSettings& s) : s_(s) {
  s_.max_channels = std::max(s_.max_channels, std::max(1u, s_.min_channels));
  current_ = base_ = std::max(1u, s_.min_channels);
}

void ActTuner::reset_to(double rtt_ms) {
  rtt_min_ = rtt_ms;
  base_ = current_ = opcn_channels(rtt_ms, s_.min_channels, s_.max_channels);
  confix_ = 0;
}

void ActTuner::step(double rtt_ms) {
  if (rtt_ms < rtt_pre_) {
    if (current_ < std::min(base_ + s_.thre, s_.max_channels)) ++current_;
  } else if (current_ > std::max(base_ > s_.thre ? base_ - s_.thre : 1u, s_.min_channels)) {
    --current_;
  }
}

unsigned ActTuner::on_rtt(double rtt_ms) {
  history_[history_next_] = rtt_ms;
  history_next_ = (history_next_ + 1) % kHistory;
  history_size_ = std::min(history_size_ + 1, kHistory);
  if (!started_ || rtt_ms <= rtt_min_) {
    // Step 1: a new minimum (or the first report) decides the count from OPCN directly.
    started_ = true;
    reset_to(rtt_ms);
  } else if (std::abs(rtt_ms - rtt_pre_) < std::max(s_.alpha_share * rtt_min_, s_.alpha_min_ms)) {
    // Steps 2-3: the RTT stays where it is (fixed congestion, or a longer path): after more than
    // beta such reports the minimum is taken again from the recent RTTs and OPCN re-applied.
    if (++confix_ > s_.beta) {
      reset_to(*std::min_element(history_.begin(), history_.begin() + static_cast<long>(history_size_)));
    } else {
      step(rtt_ms);
    }
  } else {
    // Steps 4-5: a large change is temporary congestion (or its end): one step within the band.
    confix_ = 0;
    step(rtt_ms);
  }
  rtt_pre_ = rtt_ms;
  return current_;
}

}  // namespace ncgw::udt
