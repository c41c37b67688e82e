// The tunnels' model-based congestion controller (TCP/NC's default; UDT's `bbr`), in the BBR
// family (BBR v1's state machine with the pacing and probing gains of the IETF BBR drafts; written
// for these tunnels, not a port). It estimates the path's rate (windowed maximum of delivery-rate
// samples over 10 round trips) and its minimum RTT (10 s window), paces at the rate and bounds what
// is in flight by twice their product. What differs from TCP's BBR, because the transport repairs
// link loss (TCP/NC by coding, UDT by retransmission) before the end hosts see it:
// - Delivery-rate samples count what arrived; a link that loses a share e after the bottleneck
//   arrives at (1 - e) of the rate it carried. The path rate is therefore the sample divided by
//   (1 - e_link), with e_link the loss measured in round trips without a standing queue (loss with
//   an empty queue is the link's, not congestion's). Loss measured while a queue stands is not used:
//   if it were, the controller's own overshoot would raise its estimate.
// - Congestion is: queueing delay (the smallest RTT of a round above 1.15 min RTT + 1 ms, then
//   cruising drains at gain 0.9; in an application-limited start-up two such rounds end it), a
//   rate plateau (start-up ends when the rate stops growing), and loss in a round beyond what
//   e_link predicts (start-up ends, an up-probe ends, counted). A coding window that needs a coded
//   retransmission, or a packet UDT retransmits, is not congestion: no rate cut.
// - A rate found while application-limited (start-up ended on a standing queue) is what the end
//   hosts offered, not the path's: when the input later outruns it, start-up runs again.
#pragma once
#include <cstdint>

#include "transports/common/rng.h"
#include "transports/common/windowed_filter.h"
#include "transports/common/congestion_controller.h"

namespace ncgw::transport {

// The model-based controller (CcAlgorithm::kBbr).
class BbrController : public CongestionController {
 public:
  // `s.cwnd_cap` bounds the window; `s.seed` picks the first probing phase.
  explicit BbrController(const ControllerSettings& s);

  void on_packet_acked(TimePoint, TimePoint, Duration) override {}
  void on_ack(const AckEvent& e) override;
  void on_sent(TimePoint now, std::uint32_t in_flight) override;
  void on_cw_failure(TimePoint, TimePoint) override { ++cw_failures_; }
  void on_rto(TimePoint now) override;
  void reset() override;
  double cwnd() const override { return cwnd_; }
  double pacing_rate() const override { return pacing_rate_; }
  double path_rate() const override { return bw(); }
  Duration min_rtt() const override { return have_min_rtt_ ? min_rtt_ : Duration::zero(); }
  // In ProbeRTT: its whole length (the drain before it starts and the hold after); in Startup
  // and Drain: one min RTT (the rate is still being found, or in-flight deliberately drained).
  Duration self_inflicted_queue_time() const override;
  // In Startup about a millisecond (what a host's burst would queue at a fast bottleneck anyway);
  // zero once the path's rate is known.
  Duration max_pacing_delay() const override;
  bool path_filled() const override { return filled_pipe_; }
  std::uint64_t events() const override { return events_; }
  void stats(std::vector<transport::StatEntry>& out) const override;

  // The states of the controller.
  enum class Mode : std::uint8_t { kStartup, kDrain, kProbeBw, kProbeRtt };
  Mode mode() const { return mode_; }
  // The link's own loss rate as the controller measured it (rounds without a standing queue).
  double link_loss() const;
  // The path rate estimate (transmissions per second; 0 while unknown).
  double bw() const { return max_bw_.best(); }
  // Path rate x min RTT, in transmissions (the initial window while unknown).
  double bdp() const;
  std::uint64_t round_count() const override { return round_count_; }
  std::uint64_t overshoot_rounds() const override { return overshoot_rounds_; }
  // While finding the rate, when the latest RTT sample showed a standing queue (an overflow's
  // losses are declared with the queue full; link loss with it empty goes to the estimate at once).
  bool round_may_overshoot() const override { return round_in_finding() && rtt_queued_; }
  // How often start-up ran again because a rate found application-limited was limiting.
  std::uint64_t startup_restarts() const { return startup_restarts_; }

 private:
  // Round-trip accounting: a round ends when a transmission sent after it began is acknowledged.
  void update_round(const AckEvent& e);
  // Folds the round's loss into the link-loss measure and checks for excess loss.
  void end_round(const AckEvent& e);
  // Feeds the rate sample (loss-corrected) into the max filter.
  void update_bw(const AckEvent& e);
  // Min-RTT filter; enters ProbeRTT when the minimum is older than its window.
  void update_min_rtt(const AckEvent& e);
  // Start-up ends when the rate stopped growing for three rounds, or (application-limited) a queue
  // stood for two.
  void check_full_pipe(const AckEvent& e);
  // A path rate found while application-limited (start-up ended on a standing queue, never on a
  // plateau or loss) is only what the end hosts offered then: once the input has outrun it for
  // kRestartRounds rounds in a row (packets held at the sender's entrance in each), start-up runs
  // again to find the path's rate.
  void check_restart();
  // State transitions of Drain, ProbeBW's gain cycle and ProbeRTT.
  void advance_state(const AckEvent& e);
  // Startup or Drain: the path's rate is still being found, or what finding it queued drained.
  bool finding_rate() const { return mode_ == Mode::kStartup || mode_ == Mode::kDrain; }
  // The round in progress began or ran while finding the rate (its losses may be overshoot).
  bool round_in_finding() const { return round_finding_ || finding_rate(); }
  // Whether `rtt` shows a standing queue: above min RTT x 1.15 + 1 ms (false while min RTT is unknown).
  bool shows_queue(Duration rtt) const;
  // Enters ProbeBW at a random phase other than the draining one.
  void enter_probe_bw(TimePoint now);
  // Pacing rate and window from the model and the state's gains.
  void set_outputs(const AckEvent& e);

  double cwnd_cap_, initial_cwnd_;
  // Startup's window growth per acknowledged transmission (ControllerSettings). A tunnel's input is
  // ACK-clocked over the same round trip: a host in slow start sends twice what its last round
  // delivered, with the repairs of the coding windows it fills and the tunnel's ACK delay on top,
  // so a window that only doubles per round falls a few transmissions short in every round and
  // what it holds back waits a round trip.
  double startup_cwnd_growth_;
  transport::Rng rng_;
  Mode mode_ = Mode::kStartup;
  transport::WindowedFilter<double> max_bw_;
  Duration min_rtt_{};
  TimePoint min_rtt_stamp_{};
  bool have_min_rtt_ = false;
  // Rounds.
  std::uint64_t round_count_ = 0, next_round_delivered_ = 0;
  bool round_start_ = false;
  Duration round_min_rtt_{};       // smallest RTT sample of the round in progress
  bool round_has_rtt_ = false;
  std::uint64_t round_acked_ = 0, round_lost_ = 0;
  bool queue_standing_ = false;    // the last round's smallest RTT showed a standing queue
  // Link loss: decayed counts over uncongested rounds.
  double link_acked_ = 0, link_lost_ = 0;
  // Start-up.
  double full_bw_ = 0;
  unsigned full_bw_count_ = 0;
  unsigned startup_queue_rounds_ = 0;  // consecutive rounds of start-up with a standing queue
  unsigned startup_excess_rounds_ = 0; // consecutive rounds with excess loss (ends start-up at 2)
  bool filled_pipe_ = false;
  bool bw_measured_ = false;           // start-up ended on a plateau or on loss: bw() is the path's
  bool round_held_ = false;            // the round in progress held a packet at the entrance
  unsigned held_rounds_ = 0;           // such rounds in a row, while !bw_measured_
  std::uint64_t startup_restarts_ = 0;
  // ProbeBW.
  unsigned cycle_index_ = 0;
  TimePoint cycle_stamp_{};
  bool excess_loss_ = false;       // the round just ended lost more than the link model expects
  // ProbeRTT.
  TimePoint probe_rtt_done_{};
  bool probe_rtt_timing_ = false;
  double prior_cwnd_ = 0;
  // RTO: the window is held at the minimum until something new is acknowledged.
  bool in_rto_recovery_ = false;
  // Outputs.
  double pacing_gain_ = 1, cwnd_gain_ = 2;
  double pacing_rate_ = 0, cwnd_ = 10;
  std::uint64_t events_ = 0, excess_loss_rounds_ = 0, cw_failures_ = 0, probe_rtt_count_ = 0;
  std::uint64_t overshoot_rounds_ = 0;  // excess-loss rounds that began or ran in Startup or Drain
  bool round_finding_ = true;           // the round in progress began or ran in Startup or Drain
  bool rtt_queued_ = false;             // the latest RTT sample showed a standing queue
};

}  // namespace ncgw::transport
