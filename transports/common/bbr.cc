#include "transports/common/bbr.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ncgw::transport {
namespace {

using namespace std::chrono_literals;

constexpr double kHighGain = 2.885;           // 2 / ln 2: doubles the delivery rate per round
constexpr double kDrainGain = 1.0 / kHighGain;
constexpr double kCwndGain = 2.0;             // in flight up to twice the path's BDP
// ProbeBW gain cycle, one phase per min RTT: probe up, drain what the probe queued, cruise.
constexpr std::array<double, 8> kCycle{1.25, 0.75, 1, 1, 1, 1, 1, 1};
constexpr double kCruiseDrainGain = 0.9;      // cruising while the last round showed a standing queue
constexpr double kPacingMargin = 0.99;        // pace 1% below the estimate so small queues drain
constexpr std::uint64_t kBwWindowRounds = 10;
constexpr Duration kMinRttWindow = 10s;
constexpr Duration kProbeRttTime = 200ms;
constexpr double kMinRttRefresh = 1.02;       // a sample this close to the minimum renews it
constexpr double kMinCwnd = 4;
constexpr double kFullBwGrowth = 1.25;
constexpr unsigned kFullBwRounds = 3;
// Start-up of an application-limited tunnel also ends after this many application-limited rounds in
// a row with a standing queue: a tunnel limited by what its end hosts send never shows a rate
// plateau, but their bursts, passed on at the start-up gain, would otherwise keep the bottleneck
// queue full.
constexpr unsigned kStartupQueueRounds = 2;
// Start-up ends on excess loss only after this many such rounds in a row: congestion from start-up's
// overshoot persists round after round, while one burst of link loss (a Gilbert-Elliott bad state)
// can exceed the young link-loss estimate in a single round and would otherwise end start-up at a
// fraction of the path's rate.
constexpr unsigned kStartupExcessRounds = 2;
// ... or after one round whose loss is this far above the link's (at least kStartupSevereMargin
// and this many standard deviations of the round's count): start-up's gain overflows a one-BDP
// bottleneck queue within a fraction of a round, losing a third of a round and more, which no
// link-loss burst of the loss model comes near; waiting for a second such round lost about a BDP
// more (1,300 queue drops at 50 Mbit/s and 60 ms RTT).
constexpr double kStartupSevereSigmas = 6;
constexpr double kStartupSevereMargin = 0.1;
// Start-up runs again after this many rounds in a row that held packets at the entrance while the
// path rate was only found application-limited.
constexpr unsigned kRestartRounds = 2;
// Longest pacing holds a waiting packet in Startup. Start-up's rate is measured from what the end
// hosts sent a round earlier, and a host in slow start sends twice that, in bursts: paced at it,
// the bursts would wait in the tunnel for several milliseconds a round, and CUBIC's HyStart reads
// 4 ms or more of added delay (min RTT / 8) as the end of slow start. 1 ms is about what such a
// burst queues at a fast bottleneck without a tunnel.
constexpr Duration kStartupMaxPacingDelay = 1ms;
// Standing queue: the round's smallest RTT above min RTT x 1.15 + 1 ms; empty: within x 1.1 + 1 ms.
constexpr double kQueueFactor = 1.15;
constexpr Duration kQueueSlack = 1ms;
constexpr double kEmptyFactor = 1.1;
constexpr Duration kEmptySlack = 1ms;
constexpr double kLinkLossDecay = 0.95;       // per round, for the link-loss counts
constexpr double kLinkLossMinSamples = 100;   // transmissions before excess loss is judged
constexpr double kExcessMargin = 0.02;        // excess loss: above e_link + max(this, 3 sigma) ...
constexpr std::uint64_t kExcessMinLost = 3;   // ... with at least this many losses in the round
constexpr double kMaxCorrectedLoss = 0.5;     // the rate correction 1 / (1 - e) is capped at 2

double seconds(Duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

BbrController::BbrController(const ControllerSettings& s)
    : cwnd_cap_(std::max(s.cwnd_cap, kMinCwnd)), initial_cwnd_(std::min(s.initial_cwnd, cwnd_cap_)),
      startup_cwnd_growth_(std::max(s.startup_cwnd_growth, 1.0)), rng_(s.seed),
      max_bw_(kBwWindowRounds) {
  reset();
}

void BbrController::reset() {
  mode_ = Mode::kStartup;
  max_bw_.reset();
  have_min_rtt_ = false;
  round_count_ = next_round_delivered_ = 0;
  round_start_ = round_has_rtt_ = queue_standing_ = false;
  round_acked_ = round_lost_ = 0;
  link_acked_ = link_lost_ = 0;
  full_bw_ = 0;
  full_bw_count_ = startup_queue_rounds_ = startup_excess_rounds_ = 0;
  filled_pipe_ = bw_measured_ = round_held_ = excess_loss_ = probe_rtt_timing_ = in_rto_recovery_ = false;
  held_rounds_ = 0;
  round_finding_ = true;
  rtt_queued_ = false;
  cycle_index_ = 0;
  pacing_gain_ = kHighGain;
  cwnd_gain_ = kHighGain;
  cwnd_ = initial_cwnd_;
  pacing_rate_ = 0;  // unpaced until the first RTT sample
}

bool BbrController::shows_queue(Duration rtt) const {
  return have_min_rtt_ && rtt > min_rtt_ * kQueueFactor + kQueueSlack;
}

double BbrController::link_loss() const {
  const double total = link_acked_ + link_lost_;
  return total > 0 ? link_lost_ / total : 0.0;
}

double BbrController::bdp() const {
  if (!have_min_rtt_ || bw() <= 0) return initial_cwnd_;
  return bw() * seconds(min_rtt_);
}

void BbrController::on_sent(TimePoint, std::uint32_t) {}

void BbrController::on_rto(TimePoint) {
  ++events_;
  if (!in_rto_recovery_) prior_cwnd_ = cwnd_;
  in_rto_recovery_ = true;
  cwnd_ = kMinCwnd;
}

void BbrController::on_ack(const AckEvent& e) {
  if (in_rto_recovery_ && e.acked > 0) {
    in_rto_recovery_ = false;
    cwnd_ = std::max(cwnd_, prior_cwnd_);
  }
  update_round(e);
  update_bw(e);
  if (round_start_) {
    check_restart();
    check_full_pipe(e);
  }
  update_min_rtt(e);
  advance_state(e);
  round_finding_ = (round_finding_ && !round_start_) || finding_rate();
  set_outputs(e);
}

void BbrController::update_round(const AckEvent& e) {
  round_acked_ += e.acked;
  round_lost_ += e.lost;
  round_held_ = round_held_ || e.entrance_held;
  if (e.rtt) {
    rtt_queued_ = shows_queue(*e.rtt);
    round_min_rtt_ = round_has_rtt_ ? std::min(round_min_rtt_, *e.rtt) : *e.rtt;
    round_has_rtt_ = true;
  }
  round_start_ = false;
  if (e.sample && e.sample->prior_delivered >= next_round_delivered_) {
    next_round_delivered_ = e.delivered;
    ++round_count_;
    round_start_ = true;
    end_round(e);
  }
}

void BbrController::end_round(const AckEvent& e) {
  const double n = static_cast<double>(round_acked_ + round_lost_);
  const bool rtt_known = have_min_rtt_ && round_has_rtt_;
  queue_standing_ = round_has_rtt_ && shows_queue(round_min_rtt_);
  const bool queue_empty = rtt_known && round_min_rtt_ <= min_rtt_ * kEmptyFactor + kEmptySlack;
  excess_loss_ = false;
  if (n > 0) {
    const double frac = static_cast<double>(round_lost_) / n, el = link_loss();
    // Binomial spread of a round's loss count, widened for bursty loss: with mean burst b, losses
    // come in runs and the count's variance grows about (2b - 1)-fold.
    const double sigma = std::sqrt(std::max(el, 0.01) * (1 - el) / n * (2 * std::max(e.loss_burst, 1.0) - 1));
    const bool judged = link_acked_ + link_lost_ >= kLinkLossMinSamples;
    if (judged && round_lost_ >= kExcessMinLost && frac > el + std::max(kExcessMargin, 3 * sigma)) {
      excess_loss_ = true;
      ++events_;
      ++excess_loss_rounds_;
      // The controller's own overshoot overflows a queue: only a round whose smallest RTT showed
      // one standing counts (bursty link loss can exceed the model too, with the queue empty).
      if (round_in_finding() && queue_standing_) ++overshoot_rounds_;
      const bool severe = frac > el + std::max(kStartupSevereMargin, kStartupSevereSigmas * sigma);
      if (mode_ == Mode::kStartup && (++startup_excess_rounds_ >= kStartupExcessRounds || severe))
        filled_pipe_ = bw_measured_ = true;
    } else if (queue_empty || !judged) {
      link_acked_ = link_acked_ * kLinkLossDecay + static_cast<double>(round_acked_);
      link_lost_ = link_lost_ * kLinkLossDecay + static_cast<double>(round_lost_);
    }
  }
  if (!excess_loss_) startup_excess_rounds_ = 0;  // only rounds in a row count
  round_acked_ = round_lost_ = 0;
  round_has_rtt_ = false;
}

void BbrController::update_bw(const AckEvent& e) {
  double rate = 0;
  if (e.sample && e.sample->valid) {
    // The transmissions the path carried over the interval: those delivered plus those the link
    // lost after carrying them, the latter bounded by what the link-loss model expects (with 25%
    // slack): losses beyond it may be drops before the bottleneck (congestion), never carried.
    const double el = std::min(link_loss(), kMaxCorrectedLoss);
    const double delivered = static_cast<double>(e.sample->delivered);
    const double expected_lost = delivered * el / (1 - el) * 1.25 + (el > 0 ? 1 : 0);
    const double carried = delivered + std::min(static_cast<double>(e.sample->lost), expected_lost);
    rate = carried / std::chrono::duration<double>(e.sample->interval).count();
  }
  // A rate measured where the packets arrive (after any loss on the way, from the spacing of
  // arrivals: a sparse loss leaves the median spacing) is already the rate the path carried.
  if (e.arrival_rate) rate = std::max(rate, *e.arrival_rate);
  if (rate <= 0) return;
  const bool app_limited = e.sample && e.sample->app_limited;
  if (!app_limited || rate >= bw()) max_bw_.update(rate, round_count_);
}

void BbrController::check_full_pipe(const AckEvent& e) {
  if (filled_pipe_) return;
  if (e.sample && e.sample->app_limited) {
    // No plateau can be judged from application-limited samples; a queue that stands for two such
    // rounds ends start-up instead (what queues it is the end hosts' bursts, passed on at gain 2.885).
    startup_queue_rounds_ = queue_standing_ ? startup_queue_rounds_ + 1 : 0;
    if (startup_queue_rounds_ >= kStartupQueueRounds) filled_pipe_ = true;
    return;
  }
  startup_queue_rounds_ = 0;
  if (bw() >= full_bw_ * kFullBwGrowth) {
    full_bw_ = bw();
    full_bw_count_ = 0;
    return;
  }
  if (++full_bw_count_ >= kFullBwRounds) filled_pipe_ = bw_measured_ = true;
}

void BbrController::check_restart() {
  const bool held = round_held_;
  round_held_ = false;
  // Drain holds packets at the entrance by design (it paces below the rate it found): no sign.
  if (!filled_pipe_ || bw_measured_ || mode_ == Mode::kProbeRtt || mode_ == Mode::kDrain) {
    held_rounds_ = 0;
    return;
  }
  held_rounds_ = held ? held_rounds_ + 1 : 0;
  if (held_rounds_ < kRestartRounds) return;
  mode_ = Mode::kStartup;
  filled_pipe_ = false;
  full_bw_ = 0;
  full_bw_count_ = startup_queue_rounds_ = startup_excess_rounds_ = held_rounds_ = 0;
  ++startup_restarts_;
}

void BbrController::update_min_rtt(const AckEvent& e) {
  if (!e.rtt) return;
  const Duration sample = std::max(*e.rtt, Duration(1));
  const bool expired = have_min_rtt_ && e.now > min_rtt_stamp_ + kMinRttWindow;
  if (!have_min_rtt_ || sample < min_rtt_ || expired) {
    min_rtt_ = sample;
    min_rtt_stamp_ = e.now;
    have_min_rtt_ = true;
  } else if (seconds(sample) <= seconds(min_rtt_) * kMinRttRefresh) {
    min_rtt_stamp_ = e.now;
  }
  if (expired && mode_ != Mode::kProbeRtt) {
    mode_ = Mode::kProbeRtt;
    prior_cwnd_ = in_rto_recovery_ ? prior_cwnd_ : cwnd_;
    probe_rtt_timing_ = false;
    ++probe_rtt_count_;
  }
}

void BbrController::enter_probe_bw(TimePoint now) {
  mode_ = Mode::kProbeBw;
  cycle_index_ = static_cast<unsigned>(rng_.below(kCycle.size() - 1));
  if (cycle_index_ >= 1) ++cycle_index_;  // never start in the draining phase
  cycle_stamp_ = now;
}

void BbrController::advance_state(const AckEvent& e) {
  switch (mode_) {
    case Mode::kStartup:
      if (filled_pipe_) mode_ = Mode::kDrain;
      break;
    case Mode::kDrain:
      if (e.in_flight <= bdp()) enter_probe_bw(e.now);
      break;
    case Mode::kProbeBw: {
      const double gain = kCycle[cycle_index_];
      const bool full_length = e.now - cycle_stamp_ > min_rtt_;
      bool next = full_length;
      if (gain > 1) next = full_length && (excess_loss_ || e.in_flight >= gain * bdp());
      else if (gain < 1) next = full_length || e.in_flight <= bdp();
      if (next) {
        cycle_index_ = (cycle_index_ + 1) % kCycle.size();
        cycle_stamp_ = e.now;
      }
      break;
    }
    case Mode::kProbeRtt: {
      const double target = std::max(kMinCwnd, 0.5 * bdp());
      if (!probe_rtt_timing_ && e.in_flight <= target) {
        probe_rtt_timing_ = true;
        probe_rtt_done_ = e.now + std::max(kProbeRttTime, min_rtt_);
      } else if (probe_rtt_timing_ && e.now >= probe_rtt_done_) {
        min_rtt_stamp_ = e.now;
        cwnd_ = std::max(cwnd_, prior_cwnd_);
        if (filled_pipe_) enter_probe_bw(e.now);
        else mode_ = Mode::kStartup;
      }
      break;
    }
  }
}

void BbrController::set_outputs(const AckEvent& e) {
  switch (mode_) {
    case Mode::kStartup: pacing_gain_ = cwnd_gain_ = kHighGain; break;
    case Mode::kDrain: pacing_gain_ = kDrainGain; cwnd_gain_ = kHighGain; break;
    case Mode::kProbeBw:
      pacing_gain_ = kCycle[cycle_index_];
      if (pacing_gain_ == 1.0 && queue_standing_) pacing_gain_ = kCruiseDrainGain;
      cwnd_gain_ = kCwndGain;
      break;
    case Mode::kProbeRtt: pacing_gain_ = 1; cwnd_gain_ = kCwndGain; break;
  }
  if (bw() > 0) {
    const double rate = pacing_gain_ * bw() * kPacingMargin;
    if (filled_pipe_ || rate > pacing_rate_) pacing_rate_ = rate;
  } else if (e.srtt > Duration::zero()) {
    pacing_rate_ = kHighGain * initial_cwnd_ / seconds(e.srtt);
  }
  const double quantum = std::max(2.0, pacing_rate_ * 0.001);
  const double target = cwnd_gain_ * bdp() + 2 * quantum;
  if (in_rto_recovery_) {
    cwnd_ = kMinCwnd;
  } else if (filled_pipe_) {
    cwnd_ = std::min(cwnd_ + e.acked, target);
  } else if (cwnd_ < target || e.delivered < initial_cwnd_) {
    cwnd_ += startup_cwnd_growth_ * e.acked;
  }
  if (mode_ == Mode::kProbeRtt) cwnd_ = std::min(cwnd_, std::max(kMinCwnd, 0.5 * bdp()));
  cwnd_ = std::clamp(cwnd_, kMinCwnd, cwnd_cap_);
}

Duration BbrController::self_inflicted_queue_time() const {
  switch (mode_) {
    case Mode::kStartup:   // still finding the rate (doubling each round): a queue is ours
    case Mode::kDrain:     // deliberately below the rate for about a round
      return min_rtt_;
    case Mode::kProbeRtt:
      return std::max(kProbeRttTime, min_rtt_) + min_rtt_;
    default:
      return Duration::zero();
  }
}

Duration BbrController::max_pacing_delay() const {
  return mode_ == Mode::kStartup ? kStartupMaxPacingDelay : Duration::zero();
}

void BbrController::stats(std::vector<transport::StatEntry>& out) const {
  out.push_back({"bbr_mode", static_cast<double>(mode_)});  // 0 startup, 1 drain, 2 probe_bw, 3 probe_rtt
  out.push_back({"bbr_bw_pps", bw()});
  out.push_back({"bbr_min_rtt_ms", std::chrono::duration<double, std::milli>(min_rtt()).count()});
  out.push_back({"bbr_bdp_packets", bdp()});
  out.push_back({"bbr_pacing_rate_pps", pacing_rate_});
  out.push_back({"bbr_pacing_gain", pacing_gain_});
  out.push_back({"bbr_link_loss", link_loss()});
  out.push_back({"bbr_queue_standing", queue_standing_ ? 1.0 : 0.0});
  out.push_back({"bbr_excess_loss_rounds", static_cast<double>(excess_loss_rounds_)});
  out.push_back({"bbr_overshoot_rounds", static_cast<double>(overshoot_rounds_)});
  out.push_back({"bbr_rounds", static_cast<double>(round_count_)});
  out.push_back({"bbr_probe_rtt_count", static_cast<double>(probe_rtt_count_)});
  out.push_back({"bbr_startup_restarts", static_cast<double>(startup_restarts_)});
  out.push_back({"cw_failures", static_cast<double>(cw_failures_)});
}

}  // namespace ncgw::transport
