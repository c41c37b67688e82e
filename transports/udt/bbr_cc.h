// The model-based controller (transports/common/bbr.h) driving one UDT connection's sender
// (`udt.congestion_control: bbr`, experimental: docs/udt-wire.md). UDT's receiver ACKs
// cumulatively and NAKs losses; this adapter turns that into what the controller needs: a
// delivery-rate snapshot per sent sequence number (a preallocated ring), the receiver's measured
// arrival rate and RTT from each ACK, losses from NAKs, and the pacing rate as UDT's packet
// sending period. Nothing on the wire changes; the peer may run any controller.
#pragma once
#include <cstdint>
#include <vector>

#include "transports/common/bbr.h"
#include "transports/common/delivery_rate.h"
#include "transports/common/time.h"

namespace ncgw::udt {

using transport::TimePoint;

class BbrCc {
 public:
  // Starts in start-up with `initial_window` packets. `ring_packets` bounds what can be in flight
  // (the send buffer's size); the snapshot ring is allocated here, once per connection.
  void init(std::int32_t snd_curr_seq, std::int32_t max_cwnd, std::int32_t initial_window, std::uint64_t seed,
            std::uint32_t ring_packets);
  // The connection's smoothed RTT (us): the pacing rate before the first rate sample.
  void set_rtt(std::int32_t rtt_us) { srtt_us_ = rtt_us; }
  void set_snd_curr_seq(std::int32_t) {}
  // Packet `seq` left at `now` with `in_flight` packets already in flight.
  void on_sent(std::int32_t seq, TimePoint now, std::uint32_t in_flight, bool retransmission);
  // The sender had nothing to send though its window allowed more.
  void on_app_limited(std::uint32_t in_flight);
  // A full ACK acknowledged every packet before `ack`; `last_ack` was the previous such number;
  // `in_flight` is what remains in flight after it. The path-rate sample is the larger of the
  // delivery-rate sample and the receiver's `arrival_rate` (packets/s; 0 when absent): under loss
  // UDT's cumulative ACKs hold packets behind holes and delivery-rate samples fall short; at a
  // low rate, or in start-up, the arrival rate (spacing of the last 16 arrivals) lags. The RTT
  // sample is the receiver's ACK-to-ACK2 round trip, `rtt_us`: under loss the newest packet an
  // ACK covers has usually waited behind a hole, so its send time says little.
  void on_ack(std::int32_t last_ack, std::int32_t ack, TimePoint now, std::uint32_t in_flight,
              std::int32_t arrival_rate, std::int32_t rtt_us);
  // A NAK reported packets [first, last] lost. Each transmission counts once: the receiver's
  // periodic NAK repeats its whole loss list until the retransmissions arrive.
  void on_loss(std::int32_t first, std::int32_t last);
  // The EXP timer fired with unacknowledged data.
  void on_timeout(TimePoint now) { bbr_.on_rto(now); }
  void on_congestion_warning() {}
  // Inter-packet period (us) from the pacing rate.
  double period_us() const;
  // The window UDT checks (everything sent since the cumulative ACK): the controller's window plus
  // two path BDPs, because without selective ACKs every packet sent after a lost one stays
  // unacknowledged until the retransmission arrives, a round trip later, and a lost retransmission
  // waits for the receiver's periodic NAK, about two more. Pacing, not this window, sets the rate.
  // In ProbeRTT, and before the path is measured (the initial window), the controller's window
  // stands alone. (Simulated at 100 Mbit/s, 50 ms: one BDP gave 0.96 / 0.73 of the link at 1 / 5 %
  // loss, two 0.98 / 0.84, three 0.97 / 0.86 with more bottleneck drops.)
  double cwnd() const;
  bool slow_start() const { return bbr_.mode() == transport::BbrController::Mode::kStartup; }
  // The controller's own figures (mode, rate and RTT estimates).
  const transport::BbrController& controller() const { return bbr_; }

 private:
  // What the ring keeps per sequence number.
  struct Sent {
    transport::DeliverySnapshot snapshot{};
    bool retransmitted = false;
    bool lost = false;  // reported lost since it was last sent
  };
  Sent& slot(std::int32_t seq) { return ring_[static_cast<std::uint32_t>(seq) & mask_]; }
  // An ACK that covered a retransmission released packets the receiver had held behind a hole for
  // a round trip or more. Counted as delivered now, they would make the samples of packets sent
  // before this ACK far above the path's rate (UDT has no selective ACK to credit them when they
  // arrived), so the packets still in flight take their delivery snapshot from here.
  void rebase_in_flight(std::int32_t ack, TimePoint now);

  transport::BbrController bbr_{transport::ControllerSettings{}};
  transport::DeliveryRateSampler sampler_;
  std::vector<Sent> ring_;
  std::uint32_t mask_ = 0;
  std::uint32_t lost_since_ack_ = 0;
  std::int32_t last_sent_ = 0;  // highest sequence number sent
  std::int32_t srtt_us_ = 100'000;
};

}  // namespace ncgw::udt
