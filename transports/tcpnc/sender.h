// The sending half of a TCP/NC session: the sending buffer (uncoded queue + unseen sources in the
// coding windows), CWs built with coding/, transmission numbers with RTT/loss detection (RFC 6298 /
// RFC 9002 style), congestion control on transmissions in flight, enhanced coded retransmission,
// and the online (n, k) adaptation (notes/tcpnc.md; paper 002 sections 2.1, 2.2).
#pragma once
#include <array>
#include <memory>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "coding/encoder.h"
#include "coding/loss_estimator.h"
#include "coding/redundancy.h"
#include "transports/common/core.h"
#include "transports/common/rng.h"
#include "transports/tcpnc/codel.h"
#include "transports/tcpnc/congestion_controller.h"
#include "transports/tcpnc/delivery_rate.h"
#include "transports/tcpnc/packet.h"
#include "transports/tcpnc/pacer.h"
#include "transports/tcpnc/packet_queue.h"
#include "transports/tcpnc/rtt.h"
#include "transports/tcpnc/settings.h"

namespace ncgw::tcpnc {

// Sender counters (reported through TcpncCore::stats()).
struct SenderCounters {
  std::uint64_t combinations_sent = 0, sources_sent = 0, repairs_sent = 0, retransmissions = 0;
  std::uint64_t acked = 0, declared_lost = 0, entrance_drops = 0, accepted = 0;
  std::uint64_t congestion_cws = 0, rto_count = 0, adaptations = 0, session_drops = 0, probes = 0;
  std::uint64_t aqm_drops = 0;  // accepted packets CoDel dropped from the entrance queue
};

// One direction's sender. Inactive (send() answers not_connected) until start().
class Sender {
 public:
  // Preallocates everything for sources up to `max_packet` bytes.
  Sender(const TcpncCoreSettings& s, std::size_t max_packet, std::uint64_t seed);

  // Starts a fresh stream (CW 0, source 0) toward a peer decoder with the given limits. Anything
  // still buffered from an earlier session is dropped and counted in session_drops.
  void start(const Hello& peer, TimePoint now);
  // Stops: drops everything buffered (counted), send() answers not_connected.
  void stop();
  bool active() const { return active_; }

  // An IP packet to carry (Core::send).
  transport::SendResult offer(std::span<const std::uint8_t> packet, TimePoint now);
  // Writes the next DATA datagram allowed by cwnd (retransmissions, then planned repairs, then new
  // sources) with common header `h`; returns its size.
  std::optional<std::size_t> poll(std::span<std::uint8_t> out, const CommonHeader& h, TimePoint now);
  // Processes an ACK from the peer's receiver.
  void on_ack(const AckFrame& a, TimePoint now);
  // Runs the loss-detection, RTO and flush timers that are due.
  void on_timeout(TimePoint now);
  // Earliest of the sender's timers.
  std::optional<TimePoint> next_deadline() const;
  // Appends the sender's figures to `out`.
  void stats(std::vector<transport::StatEntry>& out, TimePoint now) const;

  const SenderCounters& counters() const { return ctr_; }
  double cwnd() const { return cc_->cwnd(); }
  const CongestionController& controller() const { return *cc_; }
  unsigned n() const { return n_; }
  unsigned k() const { return k_; }
  // Long-run loss estimate (for tests of estimator accuracy).
  coding::GeEstimate long_run_estimate() const { return est_.long_run(); }
  // Packets held: uncoded queue plus unseen sources.
  std::size_t buffered() const;
  std::uint32_t in_flight() const { return in_flight_; }

 private:
  // What the sender remembers about one transmission number.
  struct TxRecord {
    std::uint64_t tx = UINT64_MAX;
    TimePoint sent{};
    DeliverySnapshot delivery{};  // delivery-rate state when it was sent
    std::uint64_t cw_id = 0;
    bool planned = false;    // one of the CW's n sources or planned k repairs
    bool in_flight = false;
    bool acked = false;
    bool lost = false;
  };
  // Per-CW sending state (parallel to the encoder's slots).
  struct CwState {
    std::uint64_t id = UINT64_MAX;
    unsigned planned_k = 0;          // repairs planned after the sources
    unsigned repairs_sent = 0;       // repairs of any kind sent (next repair number)
    unsigned in_flight = 0;          // combinations of this CW in flight
    unsigned planned_in_flight = 0;  // of which planned ones
    unsigned acked = 0;              // combinations acknowledged (upper bound on the rank)
    int ack_rank = -1;               // rank the newest ACK reported (-1: not listed)
    bool ack_complete = false;       // the newest ACK said decoded
    bool congestion_checked = false; // the "planned all resolved" check ran
    TimePoint last_planned_sent{};
  };

  // --- sender.cc: buffering and scheduling
  CwState& cw(std::uint64_t id) { return cws_[id % cws_.size()]; }
  coding::CwEncoder* open_cw(TimePoint now);
  std::size_t send_source(std::span<std::uint8_t> out, const CommonHeader& h, TimePoint now);
  std::size_t send_repair(std::span<std::uint8_t> out, const CommonHeader& h, coding::CwEncoder& e,
                          bool planned, TimePoint now);
  std::size_t emit(std::span<std::uint8_t> out, const CommonHeader& h, const coding::Combination& c,
                   std::uint64_t cw_id, bool planned, TimePoint now);
  bool flush_due(TimePoint now) const;
  // Idle input after which a partly filled CW closes: flush_us, or four packet times at the
  // path's rate when that is longer (at most 15 ms).
  Duration flush_delay() const;
  // Whether the waiting (not yet coded) queue may take another packet: the configured or derived
  // static sending buffer, or, with automatic sizing, a queueing-delay budget at the path's rate.
  bool entrance_open() const;
  // CoDel at the head of the waiting queue (automatic sizing with a known path rate only): drops
  // and counts in aqm_drops; returns whether it dropped anything. Target max(5 ms, min RTT / 10),
  // interval max(50 ms, 2 min RTT).
  bool drop_by_aqm(TimePoint now);
  // Source packets the waiting queue holds at most under automatic sizing (half the min RTT plus
  // 10 ms at the path's rate, at least 16): enough for a loss-based end host's sawtooth to keep
  // the tunnel busy (CUBIC needs about 0.43 BDP), little enough to stay within 1.5 x the RTT.
  std::size_t auto_queue_limit() const;
  // Largest CW the delay budget allows at the path's rate (a lost source waits for its CW's repairs).
  unsigned delay_bounded_n_max() const;
  // Bound on P(a CW of n sources needs a retransmission round): the configured share, tightened so
  // that at the path's rate at most half a round per RTT is expected.
  double retransmission_bound(unsigned n) const;
  // Hands the ACK's figures to the congestion controller.
  void report_ack(std::optional<Duration> path_rtt, TimePoint now);
  void flush(TimePoint now);
  void drop_all();
  // --- sender_ack.cc: acknowledgements, losses, timers
  TxRecord& rec(std::uint64_t tx) { return txs_[tx % txs_.size()]; }
  void mark_acked(TxRecord& r, TimePoint now);
  void declare_lost(TxRecord& r);
  void detect_losses(TimePoint now);
  void apply_cw_info(const AckFrame& a);
  void check_congestion(TimePoint now);
  void on_rto(TimePoint now);
  // Probe timeout (RFC 9002 PTO): when due, up to two probes go out regardless of cwnd.
  TimePoint pto_deadline() const;
  // Writes one probe: a new combination for the oldest CW still missing DoF, else a new source,
  // else a repair of the newest CW in flight.
  std::size_t send_probe(std::span<std::uint8_t> out, const CommonHeader& h, TimePoint now);
  Duration loss_delay() const;
  void advance_oldest();
  // Marks what an ACK covers; returns whether anything in flight was newly acknowledged.
  bool ack_transmissions(const AckFrame& a, TimePoint now, std::optional<Duration>& sample);
  // Remembers an unacknowledged transmission below the largest acknowledged one.
  void add_hole(std::uint64_t tx);
  // --- sender_nc.cc: DoF accounting and adaptation
  unsigned missing(const CwState& c, const coding::CwEncoder& e) const;
  unsigned retransmit_need(const CwState& c, const coding::CwEncoder& e) const;
  double loss_rate() const;
  void maybe_adapt(TimePoint now);
  void apply_plan();
  // Repairs for a CW that closed with `count` sources against a plan of (planned_n, planned_k): the
  // chooser's per-size table when adapting, else planned_k scaled to count (at least 1 if k > 0).
  unsigned repairs_for(unsigned count, unsigned planned_n, unsigned planned_k) const;

  TcpncCoreSettings s_;
  std::size_t max_packet_;
  std::size_t max_open_;
  transport::Rng rng_;
  coding::EncoderConfig enc_cfg_;
  std::optional<coding::Encoder> enc_;
  PacketQueue queue_;
  std::vector<TxRecord> txs_;
  std::vector<CwState> cws_;
  RttEstimator rtt_;
  std::unique_ptr<CongestionController> cc_;  // allocated once, at construction
  DeliveryRateSampler delivery_;
  Pacer pacer_;
  Codel codel_;  // entrance-queue AQM under automatic sizing
  std::uint32_t lost_since_ack_ = 0;   // declared lost since the last AckEvent (timers included)
  std::uint32_t acked_this_ack_ = 0;   // in flight and acknowledged by the ACK being processed
  coding::LossEstimator est_;
  coding::ChooserBounds bounds_;
  coding::RedundancyChooser chooser_;  // (n, k) chooser with preallocated tables (no allocation per call)
  coding::Choice choice_{};
  std::array<unsigned, coding::kMaxWindow + 1> short_k_{};  // repairs_by_size() for the estimate
                                                            // behind choice_ (valid once choice_.n > 0)
  double chosen_for_e_ = -1, chosen_for_burst_ = -1;

  bool active_ = false;
  std::size_t sending_buffer_;
  unsigned peer_max_open_ = 1;
  unsigned peer_max_n_ = 255;        // largest CW the peer's decoder takes (HELLO)
  unsigned n_ = 16, k_ = 2;
  std::uint64_t seen_ = 0;
  std::uint64_t next_tx_ = 0, oldest_in_flight_ = 0;
  std::uint64_t largest_acked_ = 0;
  std::uint64_t examined_ = 0;                 // transmissions below this were seen by an ACK's span
  std::array<std::uint64_t, 1024> holes_{};    // unacknowledged transmissions below largest_acked_
  std::size_t holes_count_ = 0;
  bool any_acked_ = false;
  std::uint32_t in_flight_ = 0;
  TimePoint rto_base_{}, last_add_{}, next_adapt_{}, last_sent_{};
  unsigned pto_count_ = 0;   // consecutive probe timeouts (backoff exponent)
  unsigned probes_due_ = 0;  // probes to send now
  bool pace_blocked_ = false;  // the last poll() had something to send but the pacer said wait
  std::optional<TimePoint> loss_time_;
  SenderCounters ctr_;
};

}  // namespace ncgw::tcpnc
