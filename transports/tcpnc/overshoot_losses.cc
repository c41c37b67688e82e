// OvershootLosses: holding a round's losses until the controller's verdict on it.
#include "transports/tcpnc/overshoot_losses.h"

namespace ncgw::tcpnc {

OvershootLosses::OvershootLosses(std::size_t capacity) : held_(capacity) {}

void OvershootLosses::on_lost(std::uint64_t tx, transport::TimePoint sent,
                              const transport::CongestionController& cc, coding::LossEstimator& est) {
  if (!cc.round_may_overshoot()) {
    est.on_lost(tx, sent);
  } else if (count_ < held_.size()) {
    held_[count_++] = {tx, sent};
  } else {
    ++overflow_;
    est.on_lost(tx, sent);
  }
}

void OvershootLosses::after_ack(const transport::CongestionController& cc, coding::LossEstimator& est) {
  if (cc.round_count() == round_seen_) return;  // the round goes on
  round_seen_ = cc.round_count();
  if (cc.overshoot_rounds() != overshoot_seen_) {
    overshoot_seen_ = cc.overshoot_rounds();
    excluded_ += count_;
  } else {
    for (std::size_t i = 0; i < count_; ++i) est.on_lost(held_[i].tx, held_[i].sent);
  }
  count_ = 0;
}

void OvershootLosses::reset(const transport::CongestionController& cc) {
  count_ = 0;
  round_seen_ = cc.round_count();
  overshoot_seen_ = cc.overshoot_rounds();
}

}  // namespace ncgw::tcpnc
