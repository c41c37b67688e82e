// Sender: degrees-of-freedom accounting per CW (what enhanced retransmission repairs) and the
// online (n, k) adaptation driven by the loss estimator (paper 002 section 2.1).
#include <algorithm>
#include <cmath>

#include "transports/tcpnc/sender.h"

namespace ncgw::tcpnc {

unsigned Sender::missing(const CwState& c, const coding::CwEncoder& e) const {
  const unsigned n = e.count();
  if (c.ack_complete || seen_ >= e.base() + n) return 0;
  std::uint64_t rank = c.ack_rank >= 0 ? static_cast<std::uint64_t>(c.ack_rank) : std::min<std::uint64_t>(c.acked, n);
  if (seen_ > e.base()) rank = std::max<std::uint64_t>(rank, seen_ - e.base());
  return rank >= n ? 0 : static_cast<unsigned>(n - rank);
}

unsigned Sender::retransmit_need(const CwState& c, const coding::CwEncoder& e) const {
  if (!e.closed() || c.repairs_sent < c.planned_k) return 0;  // planned combinations first
  const unsigned m = missing(c, e);
  if (m == 0) return 0;
  // While planned combinations are in flight, only a certain deficit (more DoF missing than
  // combinations that may still arrive) triggers a retransmission: the plan may still cover it.
  if (c.planned_in_flight > 0) return m > c.in_flight ? m - c.in_flight : 0;
  // Enhanced retransmission: as many new combinations as DoF missing, plus the expected loss of
  // the retransmissions themselves.
  const double e_rate = std::min(loss_rate(), 0.5);
  const unsigned margin = static_cast<unsigned>(std::lround(m * e_rate / (1.0 - e_rate)));
  const unsigned want = m + margin;
  return want > c.in_flight ? want - c.in_flight : 0;
}

double Sender::loss_rate() const { return chosen_for_e_ >= 0 ? chosen_for_e_ : 0.0; }

void Sender::maybe_adapt(TimePoint now) {
  if (now < next_adapt_) return;
  next_adapt_ = now + std::chrono::milliseconds(s_.adapt_interval_ms);
  // The short window (last <= 500 transmissions within 2 s) drives the chooser so that (n, k) follow
  // the loss both up and down; the long-run estimate stands in when the short one is not valid
  // (e.g. after idle). LossEstimator::current() would keep the larger of the two, which never lets
  // the redundancy fall after a lossy period.
  coding::GeEstimate g = est_.short_window(now);
  if (!g.valid) g = est_.long_run();
  if (!g.valid) return;
  const bool fixed = s_.fixed_n && s_.fixed_k;
  // With a known path rate every CW is as long as the delay budget allows (longer CWs average the
  // loss better, and fewer, longer CWs need fewer retransmission rounds per second); without one
  // the configured range applies.
  const unsigned n_cap = delay_bounded_n_max();
  const unsigned n_floor = cc_->path_rate() > 0 ? n_cap : std::min(s_.n_min, n_cap);
  const double target = retransmission_bound(n_cap);
  const bool bounds_changed = n_cap != bounds_.n_max || n_floor != bounds_.n_min ||
                              std::abs(target - bounds_.target_retransmit) > 0.1 * bounds_.target_retransmit;
  bounds_.n_max = n_cap;
  bounds_.n_min = n_floor;
  bounds_.target_retransmit = target;
  const bool similar = !bounds_changed && chosen_for_e_ >= 0 && std::abs(g.loss_rate - chosen_for_e_) <= 0.1 * chosen_for_e_ + 0.002 &&
                       std::abs(g.mean_burst - chosen_for_burst_) <= 0.1 * chosen_for_burst_;
  if (similar) return;
  chosen_for_e_ = g.loss_rate;
  chosen_for_burst_ = g.mean_burst;
  if (fixed) return;
  const coding::GeChannel ch = g.loss_rate > 0 ? coding::GeChannel{g.p, g.r} : coding::GeChannel{0.0, 1.0};
  choice_ = chooser_.choose(ch, bounds_);  // allocation-free: this runs on the send path
  chooser_.repairs_by_size(ch, bounds_, short_k_);
  if (choice_.n == 0 || (choice_.n == n_ && choice_.k == k_)) return;
  n_ = choice_.n;
  k_ = choice_.k;
  ++ctr_.adaptations;
  apply_plan();
}

unsigned Sender::delay_bounded_n_max() const {
  // A lost source holds the sources after it until its CW's repairs arrive, so a CW should last
  // no longer than a share of the RTT: max(15 ms, min RTT / 2) at the path's rate.
  const unsigned hard = std::min<unsigned>(peer_max_n_, static_cast<unsigned>(enc_cfg_.limits.max_n));
  const double rate = cc_->path_rate();
  const Duration min_rtt = cc_->min_rtt();
  if (rate <= 0 || min_rtt <= Duration::zero()) return hard;
  const Duration budget = std::max<Duration>(std::chrono::milliseconds(15), min_rtt / 2);
  const double n = rate * std::chrono::duration<double>(budget).count();
  return std::clamp<unsigned>(static_cast<unsigned>(n), std::min(s_.n_min, hard), hard);
}

double Sender::retransmission_bound(unsigned n) const {
  // Each CW that needs a coded retransmission holds in-order delivery for about one RTT. Bounding
  // such rounds to kRoundsPerRtt per RTT bounds the mean delay they add to about kRoundsPerRtt x
  // RTT / 2; the configured share of CWs is the upper limit, 0.02 the lower.
  constexpr double kRoundsPerRtt = 0.5, kFloor = 0.02;
  const double rate = cc_->path_rate();
  const double rtt = std::chrono::duration<double>(cc_->min_rtt()).count();
  if (rate <= 0 || rtt <= 0) return s_.retransmission_target;
  const double cws_per_rtt = rate * rtt / std::max(1u, n);
  return std::clamp(kRoundsPerRtt / cws_per_rtt, std::min(kFloor, s_.retransmission_target), s_.retransmission_target);
}

unsigned Sender::repairs_for(unsigned count, unsigned planned_n, unsigned planned_k) const {
  if (planned_k == 0 || count == 0) return 0;
  if (count >= planned_n) return planned_k;
  if (choice_.n > 0 && count < short_k_.size()) return std::min(short_k_[count], s_.k_max);
  return std::max(1u, static_cast<unsigned>(std::ceil(double(planned_k) * count / std::max(1u, planned_n))));
}

void Sender::apply_plan() {
  // The CW being filled takes the new (n, k) at once (it may close now if it already has n).
  if (coding::CwEncoder* f = enc_->filling()) {
    // The delay bound may have shrunk below what the CW already holds: then it closes now.
    const unsigned pn = std::max(f->count(), std::clamp<unsigned>(n_, 1, bounds_.n_max));
    cw(f->cw_id()).planned_k = k_;
    f->set_plan(pn, std::min<unsigned>(k_, s_.k_max));
  }
  // Closed CWs whose planned repairs are still going out get the new k, scaled to their n.
  for (std::uint64_t id = enc_->held() ? enc_->oldest_id() : enc_->next_id(); id < enc_->next_id(); ++id) {
    coding::CwEncoder* e = enc_->find(id);
    CwState& c = cw(id);
    if (!e || !e->closed() || c.id != id || c.repairs_sent >= c.planned_k) continue;
    c.planned_k = std::max(c.repairs_sent, repairs_for(e->count(), n_, k_));
  }
}

void Sender::stats(std::vector<transport::StatEntry>& out, TimePoint now) const {
  auto add = [&out](const char* name, double v) { out.push_back({name, v}); };
  const coding::GeEstimate lr = est_.long_run(), sh = est_.short_window(now);
  add("cwnd", cc_->cwnd());
  add("pacing_rate_pps", cc_->pacing_rate());
  add("path_rate_pps", cc_->path_rate());
  add("n_max_delay", delay_bounded_n_max());
  cc_->stats(out);
  add("srtt_ms", std::chrono::duration<double, std::milli>(rtt_.srtt()).count());
  add("min_rtt_ms", std::chrono::duration<double, std::milli>(rtt_.min_rtt()).count());
  add("rto_ms", std::chrono::duration<double, std::milli>(rtt_.rto()).count());
  add("loss_rate_est", loss_rate());
  add("loss_rate_long", lr.loss_rate);
  add("loss_rate_short", sh.valid ? sh.loss_rate : -1.0);
  add("mean_burst_est", chosen_for_burst_ >= 0 ? chosen_for_burst_ : 1.0);
  add("mean_burst_long", lr.mean_burst);
  add("n", n_);
  add("k", k_);
  add("retransmission_bound", bounds_.target_retransmit);
  add("predicted_p_retransmit", choice_.p_retransmit);
  add("R", double(n_ + k_) / std::max(1u, n_));
  add("predicted_efficiency", choice_.efficiency);
  add("in_flight", in_flight_);
  add("sending_buffer_used", static_cast<double>(buffered()));
  add("sending_buffer_size", static_cast<double>(sending_buffer_));
  add("combinations_sent", static_cast<double>(ctr_.combinations_sent));
  add("sources_sent", static_cast<double>(ctr_.sources_sent));
  add("repairs_sent", static_cast<double>(ctr_.repairs_sent));
  add("retransmissions", static_cast<double>(ctr_.retransmissions));
  add("declared_lost", static_cast<double>(ctr_.declared_lost));
  add("entrance_drops", static_cast<double>(ctr_.entrance_drops));
  add("aqm_drops", static_cast<double>(ctr_.aqm_drops));
  add("accepted", static_cast<double>(ctr_.accepted));
  add("congestion_events", static_cast<double>(cc_->events()));
  add("congestion_cws", static_cast<double>(ctr_.congestion_cws));
  add("rto_count", static_cast<double>(ctr_.rto_count));
  add("probes", static_cast<double>(ctr_.probes));
  add("adaptations", static_cast<double>(ctr_.adaptations));
  add("session_drops", static_cast<double>(ctr_.session_drops));
}

}  // namespace ncgw::tcpnc
