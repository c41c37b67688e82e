#include "transports/tcpnc/redundancy_plan.h"

#include <algorithm>
#include <cmath>

namespace ncgw::tcpnc {

RedundancyPlan::RedundancyPlan(const TcpncCoreSettings& s, unsigned max_n)
    : s_(s), max_n_(max_n), chooser_(std::min<unsigned>(s.n_max, coding::kMaxWindow), s.k_max) {
  bounds_ = {s.n_min, max_n_, s.k_max, s.r_max, s.retransmission_target};
  prior_.weight = s.loss_prior_transmissions;
  if (s.fixed_n && s.fixed_k) {
    n_ = std::clamp<unsigned>(*s.fixed_n, 1, max_n_);
    k_ = *s.fixed_k;
  } else {
    n_ = std::clamp<unsigned>(16, s.n_min, max_n_);
    k_ = std::min<unsigned>(2, s.k_max);
  }
  n_start_ = n_;
}

void RedundancyPlan::start(unsigned peer_max_n, TimePoint now) {
  peer_max_n_ = peer_max_n;
  bounds_.n_max = std::min(max_n_, peer_max_n);
  n_ = std::min(n_start_, bounds_.n_max);   // from our settings each session, never a past minimum
  est_ = coding::LossEstimator();
  input_window_.reset();
  round_meter_.reset();
  next_adapt_ = last_adapt_ = now;
  spare_ = spare_for_room_ = false;
  spare_choice_ = normal_choice_ = {};
  observed_burst_ = 1.0;
}

namespace {

// Shares of the path rate below which the spare plan starts and up to which it stays. Input that
// fills the path under the spare plan is sent at about the path rate times its redundancy, so the
// keep share must lie below 1 or a saturating source, once in the spare plan, would stay in it and
// carry less than the normal plan lets through.
constexpr double kSpareEnter = 0.85;
constexpr double kSpareKeep = 0.95;
// Largest redundancy of the spare plan relative to the normal plan's. Short CWs (low rates) need
// many more repairs for the same per-CW bound: at 10 Mbit/s and GE 5 % the spare plan took k 8 for
// n 13 (R 1.62 against 1.15), which left a window-limited host less room to grow than the rounds
// it saved were worth.
constexpr double kSparePriceCap = 1.25;
// Floor of a CW's delay budget where min RTT x cw_rtt_fraction is shorter: at 10 Mbit/s 15 ms is
// 13 sources, fewer than which codes poorly.
constexpr Duration kCwDelayFloor = std::chrono::milliseconds(15);
// Nor does the floor stretch a CW past half the min RTT (the hosts' RTT may grow by half its base
// value plus 10 ms) where that leaves at least this many sources, which code within a few per cent
// of the erasure limit: at 200 Mbit/s with a 10 ms RTT the full 15 ms (255 sources) held packets
// long enough to raise the hosts' RTT from about 21 to 31 ms.
constexpr double kFloorSources = 64;

}  // namespace

void RedundancyPlan::on_round(TimePoint now, std::uint64_t transmissions, const PathEstimate& path) {
  round_meter_.start(now, transmissions, path.rate);
}

bool RedundancyPlan::maybe_adapt(TimePoint now, const PathEstimate& path, std::uint64_t sources_sent,
                                 std::uint64_t transmissions) {
  round_meter_.update(now, transmissions, path.min_rtt);
  if (now < next_adapt_) return false;
  next_adapt_ = now + std::chrono::milliseconds(s_.adapt_interval_ms);
  const double elapsed = std::chrono::duration<double>(now - last_adapt_).count();
  const double input_rate = input_window_.add(static_cast<double>(sources_sent - sources_at_adapt_), elapsed);
  sources_at_adapt_ = sources_sent;
  last_adapt_ = now;
  const bool was_spare = spare_;
  spare_ = path_has_room(input_rate, path);
  spare_for_room_ = spare_ && path.filled;
  // The short window (the last 250 ms of transmissions, at least 500 and 40 loss bursts) drives the
  // chooser so that (n, k) follow the loss both up and down; the long-run estimate stands in when
  // the short one is not valid (e.g. after idle). LossEstimator::current() would keep the larger of
  // the two, which never lets the redundancy fall after a lossy period. Either is pooled with the
  // prior channel, weighed against all outcomes seen so far: the first CWs of a session carry the
  // end hosts' first round trips, where a round costs the most, and a fit of a few hundred outcomes
  // may well show no loss on a lossy path.
  const coding::GeEstimate seen = est_.long_run();
  coding::GeEstimate observed = est_.short_window(now);
  if (!observed.valid) observed = seen;
  const coding::GeEstimate g = coding::with_prior(observed, seen.samples, prior_);
  if (!g.valid) return false;
  // With a known path rate every CW is as long as the delay budget allows (longer CWs average the
  // loss better, and fewer, longer CWs need fewer retransmission rounds per second); without one
  // the configured range applies.
  const unsigned n_cap = delay_bounded_n_max(path);
  const unsigned n_floor = path.rate > 0 ? n_cap : std::min(s_.n_min, n_cap);
  const double normal_target = retransmission_bound(n_cap, path);
  const double spare_target = std::min(normal_target, spare_bound(n_cap, path));
  const double target = spare_ ? spare_target : normal_target;
  const double cost = round_cost(path);
  const bool bounds_changed = n_cap != bounds_.n_max || n_floor != bounds_.n_min || spare_ != was_spare ||
                              std::abs(target - bounds_.target_retransmit) > 0.1 * bounds_.target_retransmit ||
                              std::abs(cost - bounds_.round_cost) > 0.1 * bounds_.round_cost;
  bounds_.n_max = n_cap;
  bounds_.n_min = n_floor;
  bounds_.target_retransmit = target;
  bounds_.round_cost = cost;
  // The plan stands while the estimate stays within 10 % of what it was chosen for (and a floor
  // of 1e-4 for a clean path's noise). An absolute slack of 0.2 pp, as before, held k = 5 for 5 s
  // on a loss-free 200 Mbit/s path, chosen while the prior said 0.3 %: 2 % of all transmissions.
  const bool similar = !bounds_changed && chosen_for_e_ >= 0 &&
                       std::abs(g.loss_rate - chosen_for_e_) <= 0.1 * std::max(chosen_for_e_, g.loss_rate) + 1e-4 &&
                       std::abs(g.mean_burst - chosen_for_burst_) <= 0.1 * chosen_for_burst_;
  if (similar) return false;
  chosen_for_e_ = g.loss_rate;
  chosen_for_burst_ = g.mean_burst;
  observed_burst_ = observed.valid ? observed.mean_burst : 1.0;
  if (s_.fixed_n && s_.fixed_k) return false;
  const coding::GeChannel ch = g.loss_rate > 0 ? coding::GeChannel{g.p, g.r} : coding::GeChannel{0.0, 1.0};
  // Both plans are chosen (allocation-free: this runs on the send path): the one not in effect
  // decides whether the spare plan applies at the next adaptation.
  coding::ChooserBounds normal = bounds_, spare = bounds_;
  normal.target_retransmit = normal_target;
  spare.target_retransmit = spare_target;
  normal_choice_ = chooser_.choose(ch, normal);
  spare_choice_ = chooser_.choose(ch, spare);
  choice_ = spare_ ? spare_choice_ : normal_choice_;
  chooser_.repairs_by_size(ch, bounds_, short_k_);
  chooser_.repairs_by_size(ch, spare, idle_k_);
  chooser_.repairs_by_size(ch, normal, normal_k_);
  if (choice_.n == 0 || (choice_.n == n_ && choice_.k == k_)) return false;
  n_ = choice_.n;
  k_ = choice_.k;
  return true;
}

bool RedundancyPlan::path_has_room(double input_rate, const PathEstimate& path) const {
  if (s_.fixed_n && s_.fixed_k) return false;
  // While the tunnel is still finding the path (Startup) its input is what the end hosts send in
  // their own start-up, far below what the path will carry: repairs cost nothing whatever their
  // price, and a round (a hold of in-order delivery for an RTT) can end a host's start-up (Linux
  // HyStart reads the delay as a full path; BBR's start-up sees its delivery rate stop growing).
  // So from the first plan on, before either plan is known.
  if (!path.filled) return true;
  if (spare_choice_.n == 0 || normal_choice_.n == 0) return false;
  const auto redundancy = [](const coding::Choice& c) { return static_cast<double>(c.n + c.k) / c.n; };
  const double r = redundancy(spare_choice_);
  if (r > kSparePriceCap * redundancy(normal_choice_)) return false;
  if (path.rate <= 0 || input_rate <= 0) return false;
  return input_rate * r <= (spare_ ? kSpareKeep : kSpareEnter) * path.rate;
}

unsigned RedundancyPlan::delay_bounded_n_max(const PathEstimate& path) const {
  const unsigned hard = std::min(peer_max_n_, max_n_);
  if (path.rate <= 0 || path.min_rtt <= Duration::zero()) return hard;
  const auto sources_in = [&](Duration d) { return path.rate * std::chrono::duration<double>(d).count(); };
  const double floor_n = std::min(sources_in(kCwDelayFloor), std::max(kFloorSources, sources_in(path.min_rtt / 2)));
  const double n = std::max(floor_n, sources_in(path.min_rtt) * s_.cw_rtt_fraction);
  return std::clamp<unsigned>(static_cast<unsigned>(n), std::min(s_.n_min, hard), hard);
}

double RedundancyPlan::cws_per_min_rtt(unsigned n, const PathEstimate& path) {
  const double rtt = std::chrono::duration<double>(path.min_rtt).count();
  return path.rate > 0 && rtt > 0 ? path.rate * rtt / std::max(1u, n) : 0.0;
}

double RedundancyPlan::retransmission_bound(unsigned n, const PathEstimate& path) const {
  // Each CW that needs a coded retransmission holds in-order delivery for about one RTT, so
  // rounds_per_rtt rounds per RTT add about rounds_per_rtt x RTT / 2 of mean delay. The configured
  // share sets both knobs: 0.25 (the default) allows half a round per RTT; 1 allows two, which is
  // close to pure retransmission (most goodput, most delay).
  constexpr double kFloor = 0.02;
  const double rounds_per_rtt = 2 * s_.retransmission_target;
  const double cws_per_rtt = cws_per_min_rtt(n, path);
  if (cws_per_rtt <= 0) return s_.retransmission_target;
  return std::clamp(rounds_per_rtt / cws_per_rtt, std::min(kFloor, s_.retransmission_target),
                    per_cw_cap());
}

double RedundancyPlan::spare_bound(unsigned n, const PathEstimate& path) const {
  // Where the path has room, a round is what the end hosts pay for: in-order delivery, and with it
  // their ACK clock, held for about an RTT, and a host whose window is about one BDP (Linux's
  // default 4 MB send buffer at 200 Mbit/s and 150 ms) stalls for it. So beside the configured
  // per-CW bound, at most kSpareRoundsPerRtt rounds per RTT, whatever the number of CWs in one:
  // at 200 Mbit/s and 150 ms RTT ten 255-source CWs, where 0.01 per CW meant about a round a
  // second, each cutting BBR hosts' rate for 0.2-0.4 s: a sixth of their goodput
  // (docs/results/tcpnc-grid.md, "What a round costs at 150 ms").
  constexpr double kSpareRoundsPerRtt = 0.01;
  constexpr double kFloor = 0.001;
  // At or above the normal share the spare plan and the idle rule are off; off they stay.
  if (!idle_rule_on()) return s_.idle_retransmission_target;
  const double cws_per_rtt = cws_per_min_rtt(n, path);
  if (cws_per_rtt <= 0) return s_.idle_retransmission_target;
  return std::min(s_.idle_retransmission_target,
                  std::max(kSpareRoundsPerRtt / cws_per_rtt, std::min(kFloor, s_.idle_retransmission_target)));
}

double RedundancyPlan::round_cost(const PathEstimate& path) const {
  // Priced at nothing (paper 002's model), the normal plan took 3 repairs for 168-source CWs at 1 %
  // loss (50 Mbit/s, 150 ms RTT), and one CW in eleven needed a round, each holding CUBIC hosts'
  // ACK clock for an RTT. What a round costs depends on the hosts (RoundCostMeter); until measured,
  // the plan assumes hosts whose window is used up. The loss-based controllers keep the paper's
  // model: their rounds are congestion signals, priced by the share bound.
  if (s_.congestion_control != CcAlgorithm::kBbr || !s_.price_rounds) return 0.0;
  return round_meter_.cost(path.rate * std::chrono::duration<double>(path.min_rtt).count());
}

double RedundancyPlan::per_cw_cap() const {
  // A round cuts a loss-based controller's window (it is its congestion signal), so those keep the
  // configured share per CW. BBR's rate does not follow rounds: where a CW lasts longer than half
  // an RTT (short RTTs, low rates: the CW's delay budget has a 15 ms floor), a round costs less
  // than the repairs that would avoid it, and the per-RTT allowance is the only limit (at 10
  // Mbit/s, 10 ms RTT and 10 % loss, 13-source CWs get 1 repair instead of 2: unit test
  // RedundancyPlanShortRtt; docs/tcpnc-congestion.md "Redundancy in this regime").
  const double share = s_.retransmission_target;
  return s_.congestion_control == CcAlgorithm::kBbr ? std::min(1.0, 2 * share) : share;
}

unsigned RedundancyPlan::repairs_for(unsigned count, unsigned planned_n, unsigned planned_k) const {
  if (planned_k == 0 || count == 0) return 0;
  if (count >= planned_n) return planned_k;
  if (choice_.n > 0 && count < short_k_.size()) return std::min(short_k_[count], s_.k_max);
  return std::max(1u, static_cast<unsigned>(std::ceil(double(planned_k) * count / std::max(1u, planned_n))));
}

unsigned RedundancyPlan::urgent_repairs_for(unsigned count, unsigned planned) const {
  if (!spare_for_room_ || normal_choice_.n == 0 || count >= normal_k_.size()) return planned;
  return std::min(planned, normal_k_[count]);
}

unsigned RedundancyPlan::idle_repairs_for(unsigned count) const {
  if (choice_.n == 0 || count == 0 || count >= idle_k_.size()) return 0;
  if (!idle_rule_on()) return 0;
  return std::min(idle_k_[count], s_.k_max);
}

void RedundancyPlan::stats(std::vector<transport::StatEntry>& out, TimePoint now, const PathEstimate& path) const {
  auto add = [&out](const char* name, double v) { out.push_back({name, v}); };
  const coding::GeEstimate lr = est_.long_run(), sh = est_.short_window(now);
  add("loss_rate_est", loss_rate());
  add("loss_rate_long", lr.loss_rate);
  add("loss_rate_short", sh.valid ? sh.loss_rate : -1.0);
  add("mean_burst_est", mean_burst());
  add("mean_burst_long", lr.mean_burst);
  add("n", n_);
  add("k", k_);
  add("n_max_delay", delay_bounded_n_max(path));
  add("retransmission_bound", bounds_.target_retransmit);
  add("spare_plan", spare_ ? 1.0 : 0.0);
  add("input_rate_pps", input_window_.rate());
  add("predicted_p_retransmit", choice_.p_retransmit);
  add("R", double(n_ + k_) / std::max(1u, n_));
  add("predicted_efficiency", choice_.efficiency);
  add("round_cost", bounds_.round_cost);
  add("round_cost_samples", static_cast<double>(round_meter_.samples()));
}

}  // namespace ncgw::tcpnc
