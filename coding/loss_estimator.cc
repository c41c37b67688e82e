// Gilbert-Elliott fitting from transition counts between consecutive transmissions.
#include "coding/loss_estimator.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ncgw::coding {

LossEstimator::LossEstimator(const LossEstimatorConfig& cfg) : cfg_(cfg), ring_(cfg.history) {
  if (cfg_.history < 2) throw std::invalid_argument("LossEstimatorConfig.history must be >= 2");
}

void LossEstimator::on_arrived(std::uint64_t tx, transport::TimePoint sent) {
  resolve(tx, sent, State::kArrived);
}

void LossEstimator::on_lost(std::uint64_t tx, transport::TimePoint sent) {
  resolve(tx, sent, State::kLost);
}

const LossEstimator::Entry* LossEstimator::entry(std::uint64_t tx) const {
  if (tx >= highest_ || highest_ - tx > ring_.size()) return nullptr;
  const Entry& e = ring_[tx % ring_.size()];
  return e.tx == tx && e.state != State::kUnknown ? &e : nullptr;
}

void LossEstimator::resolve(std::uint64_t tx, transport::TimePoint sent, State s) {
  if (tx < highest_ && highest_ - tx > ring_.size()) {  // older than the history
    ++too_late_;
    return;
  }
  for (; highest_ <= tx; ++highest_) ring_[highest_ % ring_.size()] = Entry{highest_, 0, State::kUnknown};
  Entry& e = ring_[tx % ring_.size()];
  if (e.state == s || e.state == State::kArrived) return;  // repeat, or a loss after an arrival
  if (e.state == State::kLost) {                            // late arrival: withdraw the loss
    apply(tx, -1);
    ++late_corrections_;
  }
  e.sent_ns = transport::ns_since_epoch(sent);
  e.state = s;
  apply(tx, +1);
}

void LossEstimator::apply(std::uint64_t tx, int sign) {
  const Entry* e = entry(tx);
  if (e == nullptr) return;
  auto add = [sign](std::uint64_t& c) { c += static_cast<std::uint64_t>(static_cast<std::int64_t>(sign)); };
  add(e->state == State::kLost ? long_.lost : long_.arrived);
  if (tx > 0) apply_pair(tx - 1, sign);
  apply_pair(tx, sign);
}

void LossEstimator::apply_pair(std::uint64_t first, int sign) {
  const Entry* a = entry(first);
  const Entry* b = entry(first + 1);
  if (a == nullptr || b == nullptr) return;
  if (b->sent_ns - a->sent_ns > cfg_.idle_gap.count()) return;  // idle: not a chain transition
  const bool la = a->state == State::kLost, lb = b->state == State::kLost;
  std::uint64_t& c = la ? (lb ? long_.bb : long_.bg) : (lb ? long_.gb : long_.gg);
  c += static_cast<std::uint64_t>(static_cast<std::int64_t>(sign));
}

GeEstimate LossEstimator::fit(const Counts& c, std::size_t min_samples) {
  GeEstimate g;
  g.samples = c.arrived + c.lost;
  g.transitions = c.gg + c.gb + c.bg + c.bb;
  g.valid = g.samples >= min_samples && g.samples > 0;
  if (g.samples > 0) g.loss_rate = static_cast<double>(c.lost) / static_cast<double>(g.samples);
  if (c.gg + c.gb > 0) g.p = static_cast<double>(c.gb) / static_cast<double>(c.gg + c.gb);
  if (c.bg + c.bb > 0 && c.bg > 0) g.r = static_cast<double>(c.bg) / static_cast<double>(c.bg + c.bb);
  else if (c.bb > 0) g.r = 1.0 / static_cast<double>(c.bb + 1);  // one unfinished burst so far
  g.mean_burst = 1.0 / g.r;
  return g;
}

GeEstimate LossEstimator::long_run() const { return fit(long_, cfg_.min_long); }

void LossEstimator::count(Counts& c, const Entry& e, const Entry* later) const {
  (e.state == State::kLost ? c.lost : c.arrived)++;
  if (later == nullptr || later->sent_ns - e.sent_ns > cfg_.idle_gap.count()) return;
  const bool la = e.state == State::kLost, lb = later->state == State::kLost;
  (la ? (lb ? c.bb : c.bg) : (lb ? c.gb : c.gg))++;
}

std::uint64_t LossEstimator::bursts(const Counts& c) {
  // Each good -> bad transition starts a burst; a window that starts inside one counts it too.
  return c.gb + (c.lost > 0 && c.gb == 0 ? 1 : 0);
}

GeEstimate LossEstimator::short_window(transport::TimePoint now) const {
  Counts recent, spanned;  // the last short_count transmissions; all the window holds
  const std::int64_t now_ns = transport::ns_since_epoch(now);
  const std::int64_t oldest_ns = now_ns - cfg_.short_age.count();
  const std::int64_t span_ns = now_ns - cfg_.short_span.count();
  const std::uint64_t span = std::min<std::uint64_t>(ring_.size(), highest_);
  const Entry* later = nullptr;  // the entry at tx + 1 (already visited)
  for (std::uint64_t i = 0; i < span; ++i) {
    const Entry* e = entry(highest_ - 1 - i);
    const bool in_recent = i < cfg_.short_count;
    const bool spanned_enough = e != nullptr && e->sent_ns < span_ns && bursts(spanned) >= cfg_.short_bursts;
    if (e != nullptr && (e->sent_ns < oldest_ns || (!in_recent && spanned_enough))) break;
    if (e != nullptr) {
      count(spanned, *e, later);
      if (in_recent) count(recent, *e, later);
    }
    later = e;
  }
  const GeEstimate last = fit(recent, cfg_.min_short), window = fit(spanned, cfg_.min_short);
  return last.valid && window.valid && steps_up(last, window) ? last : window;
}

bool LossEstimator::steps_up(const GeEstimate& last, const GeEstimate& window) {
  // Standard deviation of a loss-rate estimate from last.samples outcomes of the window's process
  // (bursts of mean length b inflate the binomial variance about b-fold).
  const double e = std::max(window.loss_rate, 1.0 / static_cast<double>(last.samples));
  const double sd = std::sqrt(e * (1 - e) * window.mean_burst / static_cast<double>(last.samples));
  return last.loss_rate > window.loss_rate + 3 * sd;
}

GeEstimate LossEstimator::current(transport::TimePoint now) const {
  const GeEstimate s = short_window(now);
  const GeEstimate l = long_run();
  if (!s.valid) return l;
  if (!l.valid) return s;
  GeEstimate g = s;
  g.loss_rate = std::max(s.loss_rate, l.loss_rate);
  g.mean_burst = std::max(s.mean_burst, l.mean_burst);
  g.r = 1.0 / g.mean_burst;
  g.p = g.loss_rate < 1.0 ? g.loss_rate * g.r / (1.0 - g.loss_rate) : 1.0;
  g.p = std::min(g.p, 1.0);
  return g;
}

}  // namespace ncgw::coding
