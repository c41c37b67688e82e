// The online choice of the coding window size n and the repairs k (paper 002 section 2.1): the
// loss estimator fed with every transmission's fate, the exact redundancy model's chooser, and the
// bounds the path puts on them (a CW no longer than a delay budget, at most half a coded
// retransmission round per RTT). Allocation-free after construction: it runs on the send path.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "coding/loss_estimator.h"
#include "coding/loss_prior.h"
#include "coding/redundancy.h"
#include "coding/wire.h"
#include "transports/common/core.h"
#include "transports/common/time.h"
#include "transports/tcpnc/input_rate.h"
#include "transports/tcpnc/round_cost.h"
#include "transports/tcpnc/settings.h"

namespace ncgw::tcpnc {

using transport::Duration;
using transport::TimePoint;

// What the congestion controller knows of the path (zeros while unknown).
struct PathEstimate {
  double rate = 0;       // transmissions per second the path drains
  Duration min_rtt{};    // smallest RTT
  bool filled = true;    // the controller has found what the path carries (false in BBR Startup)
};

// The (n, k) plan and how it was reached.
class RedundancyPlan {
 public:
  // Bounds from the settings; `max_n` is the largest CW the local encoder takes.
  RedundancyPlan(const TcpncCoreSettings& s, unsigned max_n);

  // A new session toward a decoder that takes CWs of at most `peer_max_n`: a fresh estimator.
  void start(unsigned peer_max_n, TimePoint now);
  // The estimator (the sender reports each transmission's arrival or loss to it).
  coding::LossEstimator& estimator() { return est_; }
  // Re-chooses (n, k) when the adaptation interval has passed and the estimate, the path's bounds
  // or the spare-capacity mode moved; `sources_sent` (all sources sent so far) gives the input
  // rate, `transmissions` (all coded datagrams sent so far) what rounds cost (RoundCostMeter).
  // Returns whether (n, k) changed.
  bool maybe_adapt(TimePoint now, const PathEstimate& path, std::uint64_t sources_sent, std::uint64_t transmissions);
  // A CW's redundancy did not cover its losses: a coded retransmission round starts now, with
  // `transmissions` sent so far.
  void on_round(TimePoint now, std::uint64_t transmissions, const PathEstimate& path);
  // Whether the plan uses the spare target: the input, with the repairs that target needs, fills
  // less than the path carries (see path_has_room).
  bool spare() const { return spare_; }
  // Sources per second over the last second of adaptation intervals (0 before the first).
  double input_rate() const { return input_window_.rate(); }

  unsigned n() const { return n_; }
  unsigned k() const { return k_; }
  // Largest CW the plan allows now.
  unsigned n_max() const { return bounds_.n_max; }
  // Loss rate and mean burst behind the current plan, the prior included (0 and 1 before the
  // first plan).
  double loss_rate() const { return chosen_for_e_ >= 0 ? chosen_for_e_ : 0.0; }
  double mean_burst() const { return chosen_for_burst_ >= 1.0 ? chosen_for_burst_ : 1.0; }
  // Mean burst the estimator itself measured when the plan was chosen (1 while it had too few
  // outcomes): what the congestion controller widens its excess-loss test by.
  double observed_mean_burst() const { return observed_burst_; }
  // Repairs for a CW that closed with `count` sources against a plan of (planned_n, planned_k):
  // the chooser's per-size table when adapting, else planned_k scaled to count (at least 1 if k > 0).
  unsigned repairs_for(unsigned count, unsigned planned_n, unsigned planned_k) const;
  // Repairs for a CW of `count` sources that closed because input paused, chosen for the tighter
  // idle_retransmission_target (0 until the first estimate). The sender uses them only when the
  // path has room: a loss at the end of a burst, or of a lone interactive packet, costs a round
  // trip, while its repairs use capacity the pause left idle.
  unsigned idle_repairs_for(unsigned count) const;
  // Of the `planned` repairs of a CW of `count` sources, how many go before new sources: all of
  // them, except while the spare plan is in effect because the input leaves the path room (not in
  // Startup): then the normal plan's repairs for that size. The rest only fill what the input
  // leaves idle and yield to it: planned as if capacity were free, they would otherwise cap the
  // input at the path rate over the spare plan's redundancy, a window-limited host's window would
  // fill the entrance queue, and the input would stay below the path and the plan spare.
  unsigned urgent_repairs_for(unsigned count, unsigned planned) const;
  // Largest CW the delay budget allows at the path's rate: a lost source holds the sources after
  // it until its CW's repairs arrive, so a CW lasts at most cw_rtt_fraction x min RTT, or a floor
  // where that is shorter: 15 ms, but no more than min RTT / 2 or 64 sources, whichever is longer.
  unsigned delay_bounded_n_max(const PathEstimate& path) const;
  // Bound on P(a CW of n sources needs a retransmission round): at the path's rate at most
  // 2 x share rounds per RTT are expected (floor 0.02), and per CW at most per_cw_cap().
  double retransmission_bound(unsigned n, const PathEstimate& path) const;
  // Bound on P(a CW of n sources needs a round) for the spare plan and idle CWs: the configured
  // idle_retransmission_target, and at most 0.01 rounds per RTT at the path's rate (floor 0.001),
  // unless the configured value switches the rule off (at or above retransmission_target).
  double spare_bound(unsigned n, const PathEstimate& path) const;
  // CWs of n sources the path's rate carries in one min RTT (0 while either is unknown).
  static double cws_per_min_rtt(unsigned n, const PathEstimate& path);
  // Transmissions' worth of path capacity a retransmission round costs with BBR: what the meter
  // measured, or one min RTT at the path's rate before its first measurement (0 while the path is
  // unknown, and with the loss-based controllers).
  double round_cost(const PathEstimate& path) const;
  // The meter of what rounds cost.
  const RoundCostMeter& round_meter() const { return round_meter_; }
  // Whether the spare plan and the idle CWs' repairs apply: a configured idle_retransmission_target
  // at or above retransmission_target switches them off.
  bool idle_rule_on() const { return s_.idle_retransmission_target < s_.retransmission_target; }
  // Largest bound per CW: the configured share for the loss-based controllers (a round is their
  // congestion signal); 2 x share with BBR, so that CWs longer than half an RTT may need a round
  // as often as the per-RTT allowance lets them.
  double per_cw_cap() const;
  // Whether the controller has not filled the path yet (BBR Startup, where its rate lags the end
  // hosts' slow start: then always, whatever the spare plan costs), or the spare plan's redundancy
  // is at most kSparePriceCap times the normal plan's and the input (sources per second) with it
  // fits in the share of the path rate that enters (kSpareEnter) or keeps (kSpareKeep) the spare
  // mode. A window-limited end host is such input: every coded retransmission round holds its
  // window for a round trip (in slow start, one a HyStart delay test reads as its end), while the
  // extra repairs use capacity it leaves idle.
  bool path_has_room(double input_rate, const PathEstimate& path) const;
  // Appends the plan's figures (estimates, n, k, R, bounds) to `out`.
  void stats(std::vector<transport::StatEntry>& out, TimePoint now, const PathEstimate& path) const;

 private:
  TcpncCoreSettings s_;
  unsigned max_n_;                     // local encoder limit
  unsigned peer_max_n_ = 255;          // the peer decoder's limit (HELLO)
  coding::LossEstimator est_;
  coding::LossPrior prior_;            // what the chooser assumes before the estimator has seen much
  coding::ChooserBounds bounds_;
  coding::RedundancyChooser chooser_;  // (n, k) chooser with preallocated tables
  coding::Choice choice_{};
  std::array<unsigned, coding::kMaxWindow + 1> short_k_{};  // repairs_by_size() for the estimate
                                                            // behind choice_ (valid once choice_.n > 0)
  std::array<unsigned, coding::kMaxWindow + 1> idle_k_{};   // the same for idle_retransmission_target
  std::array<unsigned, coding::kMaxWindow + 1> normal_k_{}; // the same for the normal bound
  coding::Choice spare_choice_{};      // the choice for the spare target (valid once n > 0)
  coding::Choice normal_choice_{};     // the choice for the normal bound (valid once n > 0)
  bool spare_ = false;                 // the plan in effect is the spare one
  bool spare_for_room_ = false;        // ... because the input leaves room (not Startup's rule)
  InputRateWindow input_window_;       // the last adaptation intervals' sources and durations:
                                       // the input rate over the last second
  RoundCostMeter round_meter_;         // what rounds cost the path, measured
  std::uint64_t sources_at_adapt_ = 0; // sources sent at the last adaptation
  TimePoint last_adapt_{};             // when the last adaptation ran
  double chosen_for_e_ = -1, chosen_for_burst_ = -1;
  double observed_burst_ = 1.0;
  unsigned n_ = 16, k_ = 2;
  unsigned n_start_ = 16;              // n at the start of every session (from the settings)
  TimePoint next_adapt_{};
};

}  // namespace ncgw::tcpnc
