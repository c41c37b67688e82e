// The congestion-controller interface senders drive, and what a sender tells it. The model-based
// controller (bbr.h) sits behind it for TCP/NC (its default) and UDT (`congestion_control: bbr`):
// it paces at its estimate of the path's rate and does not read link loss that the transport
// repairs as congestion. TCP/NC's window-based NewReno / CUBIC (transports/tcpnc/window_controller.h),
// which paper 002's scenarios use, implement it too.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "transports/common/core.h"
#include "transports/common/time.h"
#include "transports/common/delivery_rate.h"

namespace ncgw::transport {

// Which congestion controller a sender runs.
enum class CcAlgorithm : std::uint8_t { kNewReno, kCubic, kBbr };

// What one ACK told the controller (after the sender processed it).
struct AckEvent {
  TimePoint now{};
  std::uint32_t acked = 0;           // transmissions newly acknowledged that were in flight
  std::uint32_t lost = 0;            // transmissions newly declared lost by this ACK
  std::optional<RateSample> sample;  // delivery-rate sample (absent if nothing was acknowledged)
  std::optional<Duration> rtt;       // path RTT sample (the receiver's ACK delay removed)
  Duration srtt{};                   // smoothed RTT (RFC 6298)
  std::uint32_t in_flight = 0;       // transmissions in flight after the ACK
  std::uint64_t delivered = 0;       // transmissions acknowledged since the session began
  // A rate the receiver measured directly (transmissions per second arriving there); the path-rate
  // sample is the larger of it and the delivery-rate sample. UDT's ACKs carry one: they are
  // cumulative only, so under loss packets held behind a hole are acknowledged a round trip late,
  // and delivery-rate samples then fall short. Absent for TCP/NC, whose ACKs say what arrived.
  std::optional<double> arrival_rate;
  double loss_burst = 1.0;           // mean loss-burst length the sender's loss estimator sees (1: none)
  // Since the previous ACK a packet waited at the sender's entrance for longer than a few
  // milliseconds: the input outran what the controller let out (TCP/NC sets it; UDT does not).
  bool entrance_held = false;
};

// The sender's congestion controller: how many transmissions may be in flight, and how fast they
// may leave.
class CongestionController {
 public:
  virtual ~CongestionController() = default;
  // A transmission sent at `sent` was acknowledged at `now` (called per transmission, before the
  // ACK's on_ack; window controllers grow here).
  virtual void on_packet_acked(TimePoint sent, TimePoint now, Duration srtt) = 0;
  // The whole ACK, once processed.
  virtual void on_ack(const AckEvent& e) = 0;
  // A transmission left at `now` with `in_flight` already in flight before it.
  virtual void on_sent(TimePoint now, std::uint32_t in_flight) = 0;
  // TCP/NC: a coding window still missed degrees of freedom after all its planned combinations were
  // resolved (it needs a coded retransmission round); its last planned one left at `sent`.
  virtual void on_cw_failure(TimePoint sent, TimePoint now) = 0;
  // Retransmission timeout: everything in flight was declared lost.
  virtual void on_rto(TimePoint now) = 0;
  // Forgets everything (new session).
  virtual void reset() = 0;
  // Transmissions allowed in flight.
  virtual double cwnd() const = 0;
  // Transmissions per second the sender paces at; 0 means unpaced (window-limited only).
  virtual double pacing_rate() const = 0;
  // Estimated rate at which the path drains transmissions (per second; 0 while unknown).
  virtual double path_rate() const = 0;
  // The path's minimum RTT as the controller tracks it (zero while unknown).
  virtual Duration min_rtt() const = 0;
  // How long the controller is deliberately sending below the path rate (BBR's ProbeRTT, and its
  // Startup and Drain, while the rate is still being found or in-flight drained): the
  // entrance queue then holds that much more traffic and its AQM stands aside, so the end hosts
  // do not pay for the controller's own probe with drops. Zero otherwise.
  virtual Duration self_inflicted_queue_time() const { return Duration::zero(); }
  // The longest pacing may hold a packet waiting at the entrance (zero: no bound, pacing alone
  // decides). While the controller's rate is a guess that lags the traffic it carries (BBR's
  // Startup), pacing at it would queue the end hosts' own slow-start bursts in the tunnel and add
  // delay they read as congestion; the sender then drains what waits within this bound.
  virtual Duration max_pacing_delay() const { return Duration::zero(); }
  // Whether the controller has found what the path carries (BBR: Startup saw the delivery rate
  // plateau, or excess loss or a standing queue). Until then the path has room by definition.
  // Controllers without a rate model say true: they make no claim.
  virtual bool path_filled() const { return true; }
  // Rounds (one round trip each: a round ends when a transmission sent after it began is
  // acknowledged) counted so far; 0 for controllers that keep no rounds.
  virtual std::uint64_t round_count() const { return 0; }
  // Of those rounds, the ones whose loss was the controller's own overshoot: more than the
  // link-loss model expects in a round that began or ran while the controller was still finding
  // the path's rate (BBR Startup, and the Drain after it). Such losses are queue overflow, not the
  // link's: the sender keeps them out of its link-loss estimate, or it would size repairs for them.
  virtual std::uint64_t overshoot_rounds() const { return 0; }
  // Whether the round in progress may turn out to be an overshoot round: the sender then holds
  // the losses it declares until the round ends, and feeds them to its estimate only if it was not.
  virtual bool round_may_overshoot() const { return false; }
  // Congestion responses so far (window reductions; for the model-based controller, rounds whose
  // loss exceeded what the link-loss model expects, and timeouts).
  virtual std::uint64_t events() const = 0;
  // Appends the controller's own figures (names prefixed by the caller's conventions) to `out`.
  virtual void stats(std::vector<transport::StatEntry>& out) const = 0;
};

// Settings every controller takes.
struct ControllerSettings {
  CcAlgorithm algorithm = CcAlgorithm::kBbr;
  double initial_cwnd = 10;      // packets (RFC 6928)
  double cwnd_cap = 8192;        // packets: the configured upper limit, or the memory bound
  std::uint64_t seed = 1;        // randomises the bandwidth-probing phase (model-based controller)
  // Model-based controller, Startup: window growth per acknowledged transmission. 1 (BBR's: the
  // window doubles per round) for a sender whose own data fills it; TCP/NC's tunnel, whose input is
  // ACK-clocked end hosts in slow start plus repairs, uses 2 (BbrController explains why).
  double startup_cwnd_growth = 1;
};

}  // namespace ncgw::transport
