// Keeps the tunnel's own start-up overshoot out of the link-loss estimate. While the congestion
// controller is still finding the path's rate (BBR Startup) it overflows the bottleneck queue
// once; those drops are congestion, not the link's loss, but the sender declares them lost like
// any other. Fed to the loss estimator they read as a lossy link (0.46 was seen on a loss-free
// 100 Mbit/s path) and the redundancy plan sends repairs for a second and more. So while the
// controller's round in progress may be an overshoot round (CongestionController::
// round_may_overshoot), the losses declared are held; when the round ends they go to the
// estimator, unless the controller counted it as an overshoot round: then they are dropped from
// it. Other losses go to the estimator at once. Bounded memory, allocated once.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "coding/loss_estimator.h"
#include "transports/common/congestion_controller.h"

namespace ncgw::tcpnc {

// The losses held for the round in progress, and what became of earlier rounds'.
class OvershootLosses {
 public:
  // Holds up to `capacity` losses per round (more go to the estimator at once, and are counted).
  explicit OvershootLosses(std::size_t capacity = 4096);

  // Transmission `tx`, sent at `sent`, was declared lost (before the ACK that reports it reaches
  // `cc`): held while `cc`'s round may be an overshoot round, otherwise recorded in `est` at once.
  void on_lost(std::uint64_t tx, transport::TimePoint sent, const transport::CongestionController& cc,
               coding::LossEstimator& est);
  // `cc` has processed an ACK: if a round ended with it, its held losses are dropped (an overshoot
  // round) or recorded in `est` (any other).
  void after_ack(const transport::CongestionController& cc, coding::LossEstimator& est);
  // A new session (after `cc` was reset): forgets what is held.
  void reset(const transport::CongestionController& cc);

  std::uint64_t excluded() const { return excluded_; }  // losses kept out of the estimate
  std::uint64_t overflow() const { return overflow_; }  // losses that found the hold full

 private:
  struct Held { std::uint64_t tx; transport::TimePoint sent; };
  std::vector<Held> held_;   // losses of the round in progress (capacity fixed)
  std::size_t count_ = 0;    // entries of held_ in use
  std::uint64_t round_seen_ = 0, overshoot_seen_ = 0;  // the controller's counters at the last ACK
  std::uint64_t excluded_ = 0, overflow_ = 0;
};

}  // namespace ncgw::tcpnc
