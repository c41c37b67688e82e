// Online Gilbert-Elliott estimation of the loss process from per-transmission outcomes (paper 002,
// section 2.1; docs/tcpnc-mechanism.md "Online adaptation"). The chain is indexed by transmission number:
// p = P(arrived -> lost), r = P(lost -> arrived) between consecutive transmissions, loss rate
// e = p / (p + r), mean burst length 1 / r.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "transports/common/time.h"

namespace ncgw::coding {

// One Gilbert-Elliott fit.
struct GeEstimate {
  double p = 0.0;          // P(good -> bad) per transmission
  double r = 1.0;          // P(bad -> good) per transmission (1 when no loss seen)
  double loss_rate = 0.0;  // lost / resolved outcomes
  double mean_burst = 1.0; // 1 / r
  std::uint64_t samples = 0;      // resolved outcomes behind this estimate
  std::uint64_t transitions = 0;  // consecutive pairs counted (idle gaps excluded)
  bool valid = false;             // enough samples (see LossEstimatorConfig)
};

// Windows and bounds of the estimator.
struct LossEstimatorConfig {
  std::size_t history = 8192;     // recent transmissions kept: a late arrival within it is corrected
  std::size_t short_count = 500;  // short window: at least this many most recent transmissions ...
  transport::Duration short_span = std::chrono::milliseconds(250);  // ... or all sent within this ...
  // ... or as many as it takes to hold this many loss bursts: a fit of fewer is too noisy to plan
  // repairs from (at 1 % loss, 250 ms at 50 Mbit/s hold about 11 losses, and the rate read from
  // them ranges 0.2-2 %) ...
  std::size_t short_bursts = 40;
  transport::Duration short_age = std::chrono::seconds(4);  // ... none sent longer ago than this
  std::size_t min_short = 100;    // short estimate is valid from this many samples
  std::size_t min_long = 1000;    // long-run estimate is valid from this many samples
  // Consecutive transmissions sent further apart than this are not a chain transition (idle).
  transport::Duration idle_gap = std::chrono::milliseconds(500);
};

// Estimator fed from ACK processing. Outcomes may arrive in any order of transmission number.
class LossEstimator {
 public:
  // Preallocates the history ring.
  explicit LossEstimator(const LossEstimatorConfig& cfg = {});

  // Transmission `tx`, sent at `sent`, arrived (acknowledged). If it was reported lost before and
  // is still in the history, the loss is withdrawn (a late arrival is not a loss).
  void on_arrived(std::uint64_t tx, transport::TimePoint sent);
  // Transmission `tx`, sent at `sent`, was declared lost. Ignored if already resolved.
  void on_lost(std::uint64_t tx, transport::TimePoint sent);

  // Long-run estimate over everything seen (accurate; slow to follow change).
  GeEstimate long_run() const;
  // Short-window estimate over the transmissions sent within short_span of `now`, at least the
  // last short_count, and further back until it holds short_bursts loss bursts (none older than
  // short_age). When the last short_count alone show a loss rate
  // more than three standard deviations (of a short_count-sample estimate) above it, their fit is
  // returned instead: a step up shows at once, a lull between bursts does not read as a clean path.
  // Invalid (valid == false) with fewer than min_short samples, e.g. after idle.
  GeEstimate short_window(transport::TimePoint now) const;
  // What drives the redundancy chooser: the short-window estimate when valid, the long-run one
  // otherwise, combined conservatively (the larger loss rate and burst length of the two valid).
  GeEstimate current(transport::TimePoint now) const;

  std::uint64_t late_corrections() const { return late_corrections_; }  // losses withdrawn
  std::uint64_t too_late() const { return too_late_; }  // outcomes older than the history, ignored

 private:
  enum class State : std::uint8_t { kUnknown, kArrived, kLost };
  struct Entry { std::uint64_t tx = 0; std::int64_t sent_ns = 0; State state = State::kUnknown; };
  struct Counts { std::uint64_t gg = 0, gb = 0, bg = 0, bb = 0, arrived = 0, lost = 0; };

  void resolve(std::uint64_t tx, transport::TimePoint sent, State s);
  void apply(std::uint64_t tx, int sign);
  void apply_pair(std::uint64_t first, int sign);
  const Entry* entry(std::uint64_t tx) const;
  static GeEstimate fit(const Counts& c, std::size_t min_samples);
  // Loss bursts in `c` (about the good -> bad transitions).
  static std::uint64_t bursts(const Counts& c);
  // Adds outcome `e` (and its transition to `later`, the next transmission, if any) to `c`.
  void count(Counts& c, const Entry& e, const Entry* later) const;
  // Whether the last few transmissions' fit lies more than three standard deviations above the
  // longer window's: the loss stepped up.
  static bool steps_up(const GeEstimate& last, const GeEstimate& window);

  LossEstimatorConfig cfg_;
  std::vector<Entry> ring_;
  std::uint64_t highest_ = 0;   // highest tx number recorded + 1
  Counts long_;
  std::uint64_t late_corrections_ = 0, too_late_ = 0;
};

}  // namespace ncgw::coding
