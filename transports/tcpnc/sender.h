// The sending half of a TCP/NC session (paper 002 sections 2.1, 2.2): it takes IP packets into its
// waiting queue, codes them in CWs, numbers every transmission, detects losses from the ACKs
// (RFC 9002 style), retransmits coded combinations, and sends only what the congestion controller
// allows, when the pacer allows. Its state is cut by owner:
//   CwBook            the coding windows and what is known of each (cw_book.h)
//   RedundancyPlan    loss estimator and (n, k) choice (redundancy_plan.h)
//   CongestionController, Pacer, DeliveryRateSampler   how much and how fast (congestion_controller.h)
//   EntranceLanes + Codel the waiting queue (sparse and bulk lanes) and its AQM (entrance_lanes.h,
//                     codel.h)
//   Sender itself     the transmission records (ACK and loss detection, sender_ack.cc), timers,
//                     and the scheduling that ties the parts together (sender.cc).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "transports/common/core.h"
#include "transports/common/rng.h"
#include "transports/tcpnc/codel.h"
#include "transports/tcpnc/congestion_controller.h"
#include "transports/tcpnc/cw_book.h"
#include "transports/common/delivery_rate.h"
#include "transports/tcpnc/overshoot_losses.h"
#include "transports/tcpnc/pacer.h"
#include "transports/tcpnc/packet.h"
#include "transports/tcpnc/entrance_lanes.h"
#include "transports/tcpnc/form_pieces.h"
#include "transports/tcpnc/header_compression.h"
#include "transports/tcpnc/redundancy_plan.h"
#include "transports/tcpnc/rtt.h"
#include "transports/tcpnc/settings.h"

namespace ncgw::tcpnc {

// A source that waited at the entrance longer than this before it left counts as a long wait: 4 ms
// is the smallest rise of the RTT that CUBIC's HyStart reads as the end of slow start.
inline constexpr Duration kLongEntranceWait = std::chrono::milliseconds(4);

// Sender counters (reported through TcpncCore::stats()).
struct SenderCounters {
  std::uint64_t combinations_sent = 0, sources_sent = 0, repairs_sent = 0, retransmissions = 0;
  std::uint64_t acked = 0, declared_lost = 0, entrance_drops = 0, accepted = 0;
  std::uint64_t congestion_cws = 0, rto_count = 0, adaptations = 0, session_drops = 0, probes = 0;
  std::uint64_t aqm_drops = 0;  // accepted packets CoDel dropped from the entrance queue
  std::uint64_t sparse_accepted = 0;  // accepted packets that took the sparse lane
  std::uint64_t idle_cws = 0, idle_extra_repairs = 0;  // CWs closed early (a pause, or their age)
                                                       // that got the idle target's repairs, and
                                                       // the repairs added
  std::uint64_t aged_cws = 0;  // CWs closed partly filled because slow input kept them open too long
  std::int64_t entrance_wait_ns = 0;     // time sources spent at the entrance, summed
  std::uint64_t entrance_long_waits = 0; // sources that waited there longer than kLongEntranceWait
  std::uint64_t mss_clamped = 0;         // SYNs whose MSS option was lowered (clamped_mss)
};

// One direction's sender. Inactive (send() answers not_connected) until start().
class Sender {
 public:
  // Preallocates everything for coded sources up to `max_symbol` bytes (the IP packets it takes
  // are kHcMaxPrefix shorter with header compression on).
  Sender(const TcpncCoreSettings& s, std::size_t max_symbol, std::uint64_t seed);
  // The controller's minimum RTT (zero before the first sample).
  Duration min_rtt() const { return cc_->min_rtt(); }

  // Starts a fresh stream (CW 0, source 0) toward a peer decoder with the given limits. Anything
  // still buffered from an earlier session is dropped and counted in session_drops.
  void start(const Hello& peer, TimePoint now);
  // Stops: drops everything buffered (counted), send() answers not_connected.
  void stop();
  bool active() const { return active_; }
  // The largest IP packet offer() takes in this session (before one: the configured one).
  std::size_t max_packet() const { return max_packet_; }
  // When the oldest CW the receiver still misses degrees of freedom of was opened (none: nullopt).
  // The core restarts a session whose oldest such CW is as old as a dead peer's silence: a peer
  // that answers but never completes a CW (a bug, or a datagram that poisoned its decoder) must
  // not hold the tunnel for ever.
  std::optional<TimePoint> oldest_unresolved_cw_opened();

  // An IP packet to carry (Core::send).
  transport::SendResult offer(std::span<const std::uint8_t> packet, TimePoint now);
  // Writes the next DATA datagram allowed by cwnd and the pacer (retransmissions, then planned
  // repairs, then new sources) with common header `h`; returns its size.
  std::optional<std::size_t> poll(std::span<std::uint8_t> out, const CommonHeader& h, TimePoint now);
  // Processes an ACK from the peer's receiver.
  void on_ack(const AckFrame& a, TimePoint now);
  // Runs the loss-detection, RTO, probe and flush timers that are due.
  void on_timeout(TimePoint now);
  // Earliest of the sender's timers (the pacer's release time included when it holds data back).
  std::optional<TimePoint> next_deadline() const;
  // Appends the sender's figures to `out`.
  void stats(std::vector<transport::StatEntry>& out, TimePoint now) const;

  const SenderCounters& counters() const { return ctr_; }
  double cwnd() const { return cc_->cwnd(); }
  const CongestionController& controller() const { return *cc_; }
  unsigned n() const { return plan_.n(); }
  unsigned k() const { return plan_.k(); }
  // Long-run loss estimate (for tests of estimator accuracy).
  coding::GeEstimate long_run_estimate() const { return const_cast<RedundancyPlan&>(plan_).estimator().long_run(); }
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

  // --- sender.cc: buffering, scheduling, sizing
  std::size_t send_source(std::span<std::uint8_t> out, const CommonHeader& h, TimePoint now);
  // Something waits to become a source: a queued packet or the rest of a form in pieces.
  bool has_input() const { return !queue_.empty() || splitter_.pending(); }
  // A CW just opened at `now`: its time and urgent repairs; older CWs' idle-slot repairs given up.
  void open_cw(coding::CwEncoder& e, TimePoint now);
  // Adds the next source to the filling CW `e`: the queue's front packet (compressed, popped) or
  // the splitter's next piece.
  coding::Combination add_next_source(coding::CwEncoder& e, TimePoint now);
  // The queue's front packet, its SYN MSS clamped (into syn_buf_) where the session clamps.
  std::span<const std::uint8_t> front_packet();
  // Pops the queue's front packet, accounting for its wait at the entrance.
  void pop_front(TimePoint now);
  // The oldest closed CW with planned repairs still to send, if any.
  std::optional<std::uint64_t> first_filler();
  std::size_t send_repair(std::span<std::uint8_t> out, const CommonHeader& h, const OpenCw& c, bool planned,
                          TimePoint now);
  std::size_t emit(std::span<std::uint8_t> out, const CommonHeader& h, const coding::Combination& c,
                   std::uint64_t cw_id, bool planned, TimePoint now);
  // Writes one probe: a new combination for the oldest CW still missing DoF, else a new source,
  // else a repair of the newest CW in flight.
  std::size_t send_probe(std::span<std::uint8_t> out, const CommonHeader& h, TimePoint now);
  // Whether input has paused for flush_delay() with a partly filled CW open.
  bool flush_due(TimePoint now) const;
  // When the CW being filled becomes too old to wait for more sources (none while none is open or
  // the path rate is unknown): twice what a full CW lasts at the path rate after its first source,
  // at most half the min RTT unless a full CW lasts longer.
  std::optional<TimePoint> cw_age_deadline() const;
  // Closes the CW being filled if input paused (flush_due) or it is too old (cw_age_deadline).
  void close_due_cw(TimePoint now);
  // Closes the CW being filled (input paused, or it grew too old) with repairs for its size: the
  // idle target's when the path has room for them (has_room_for), else the plan's.
  void flush(TimePoint now);
  // Whether `extra` more transmissions keep what is in flight within half the path's BDP (half the
  // window while the path is unknown): the path is less than half used, so repairs cost only
  // capacity that would stay idle.
  bool has_room_for(unsigned extra) const;
  // Idle input after which a partly filled CW closes: flush_us, or four packet times at the
  // path's rate when that is longer (at most 15 ms); for input below the path's rate, four packet
  // times at the input's mean rate where they fit in the CW delay budget (cw_rtt_fraction x min
  // RTT, at most 15 ms).
  Duration flush_delay() const;
  void drop_all();
  // Whether the waiting (not yet coded) queue may take another packet: the configured or derived
  // static sending buffer, or, with automatic sizing, a queueing-delay budget at the path's rate.
  bool entrance_open(EntranceLanes::Lane lane, TimePoint now) const;
  // Source packets the waiting queue holds at most under automatic sizing (half the min RTT plus
  // 10 ms at the path's rate, at least 48, plus the controller's self-inflicted queue time while
  // it probes below the path rate): enough for a loss-based end host's sawtooth to keep the
  // tunnel busy (CUBIC needs about 0.43 BDP), little enough to stay within 1.5 x the RTT.
  std::size_t auto_queue_limit(TimePoint now) const;
  // CoDel at the head of the waiting queue (automatic sizing with a known path rate only): drops
  // and counts in aqm_drops; returns whether it dropped anything. Target max(5 ms, min RTT / 4)
  // (a CUBIC end host needs about 0.3 RTT of queue to stay busy after a reduction), interval
  // max(50 ms, 2 min RTT); off while the controller's own probe makes the queue.
  bool drop_by_aqm(TimePoint now);
  // Input that does not slow down for drops (CoDel's fourth drop in one dropping state, or the
  // bulk lane overflowing after its second) gets a short queue: the bulk lane's limit is CoDel's
  // target at the path rate (at least 16 packets; plus the controller's self-inflicted queue time
  // while it probes) for eight CoDel intervals from now.
  void start_short_queue(TimePoint now);
  // The controller's view of the path, for the redundancy plan.
  PathEstimate path() const { return {cc_->path_rate(), cc_->min_rtt(), cc_->path_filled()}; }
  // Re-plans (n, k) when due and applies a new plan to the CWs still open.
  void adapt(TimePoint now);
  // The CW being filled takes the plan at once; closed CWs whose planned repairs are still going
  // out get the new k, scaled to their size (never fewer than an idle plan gave them).
  void apply_plan();

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
  Duration loss_delay() const;
  void advance_oldest();
  // Marks what an ACK covers; returns whether anything in flight was newly acknowledged.
  bool ack_transmissions(const AckFrame& a, TimePoint now, std::optional<Duration>& sample);
  // Remembers an unacknowledged transmission below the largest acknowledged one.
  void add_hole(std::uint64_t tx);
  // Hands the ACK's figures to the congestion controller.
  void report_ack(std::optional<Duration> path_rtt, TimePoint now);

  // The rate the pacer applies now: the controller's, raised while the controller bounds the
  // pacing delay (BBR's Startup) so that what waits at the entrance leaves within that bound.
  double send_rate() const;
  // Transmissions the window allows in flight: the controller's window, and until the session's
  // first acknowledgement the repairs sent so far on top (at most as many again): the initial
  // window counts the end hosts' first packets, and their CWs' repairs, chosen before the loss
  // estimate has much to go on, may be as many as their sources.
  double window() const;

  TcpncCoreSettings s_;
  std::size_t max_symbol_;              // our largest coded source
  std::size_t max_packet_;              // this session's largest IP packet (offer() refuses more)
  std::size_t configured_max_packet_;   // ours, from the settings (max_tunnel_packet)
  std::size_t source_limit_ = 0;        // this session's largest source: min(ours, the peer's)
  HeaderCompressor compressor_;         // inner headers of this session's sources
  bool compress_ = false;               // both sides have header compression on
  bool pieces_ = false;                 // ... and the peer joins forms sent in pieces
  std::uint16_t mss_clamp_ = 0;         // SYNs' MSS is lowered to this (0: not clamped)
  FormSplitter splitter_;               // the form being coded (compressor_'s output), in pieces
  std::vector<std::uint8_t> syn_buf_;   // a SYN whose MSS is being clamped
  transport::Rng rng_;
  EntranceLanes queue_;
  Codel codel_;                                // entrance-queue AQM under automatic sizing
  TimePoint short_queue_until_{};              // the bulk lane's limit is CoDel's target until then
  std::uint64_t short_queue_periods_ = 0;      // times an unresponsive input started a short queue
  CwBook book_;
  RedundancyPlan plan_;
  RttEstimator rtt_;
  std::unique_ptr<CongestionController> cc_;   // allocated once, at construction
  DeliveryRateSampler delivery_;
  OvershootLosses overshoot_;                  // the controller's start-up overshoot, kept out of
                                               // the loss estimate
  Pacer pacer_;
  std::vector<TxRecord> txs_;

  bool active_ = false;
  std::size_t sending_buffer_;
  std::uint64_t seen_ = 0;
  std::uint64_t next_tx_ = 0, oldest_in_flight_ = 0;
  std::uint64_t largest_acked_ = 0;
  std::uint64_t examined_ = 0;                 // transmissions below this were seen by an ACK's span
  std::array<std::uint64_t, 1024> holes_{};    // unacknowledged transmissions below largest_acked_
  std::size_t holes_count_ = 0;
  bool any_acked_ = false;
  std::uint32_t in_flight_ = 0;
  std::uint32_t first_round_repairs_ = 0;  // repairs sent before the session's first acknowledgement
  std::uint32_t lost_since_ack_ = 0;   // declared lost since the last AckEvent (timers included)
  std::uint32_t acked_this_ack_ = 0;   // in flight and acknowledged by the ACK being processed
  TimePoint rto_base_{}, last_add_{}, last_sent_{};
  unsigned pto_count_ = 0;     // consecutive probe timeouts (backoff exponent)
  unsigned probes_due_ = 0;    // probes to send now
  bool long_wait_since_ack_ = false;  // a source waited longer than kLongEntranceWait since the last ACK
  bool pace_blocked_ = false;  // the last poll() had something to send but the pacer said wait
  std::optional<TimePoint> loss_time_;
  SenderCounters ctr_;
};

}  // namespace ncgw::tcpnc
