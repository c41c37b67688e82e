// Sender: buffering, CW life cycle, transmission scheduling, automatic sizing and the plan.
#include "transports/tcpnc/sender.h"

#include <algorithm>
#include <cmath>

#include "coding/header.h"
#include "transports/common/entrance_queue.h"
#include "transports/common/tcp_mss.h"

namespace ncgw::tcpnc {
namespace {

// RTO ceiling: a tunnel keeps probing a lossy link every few seconds at most (RFC 6298 allows a
// ceiling of 60 s; a silent tunnel for that long would look dead to the peer and the end hosts).
constexpr Duration kRtoMax = std::chrono::seconds(4);
// Longest idle input after which a partly filled CW closes (Sender::flush_delay).
constexpr Duration kLongestFlushDelay = std::chrono::milliseconds(15);

// Encoder sizes for these settings and sources up to `max_packet` bytes.
coding::EncoderConfig encoder_config(const TcpncCoreSettings& s, std::size_t max_packet) {
  coding::EncoderConfig c;
  c.max_open = coding_windows(s);
  c.limits.max_n = std::min<std::size_t>(s.n_max, coding::kMaxWindow);
  c.limits.max_accumulated = std::min<std::size_t>(s.k_max, 16);
  c.limits.max_packet = max_packet;
  return c;
}

// CoDel's target sojourn: max(5 ms, min RTT / 4).
Duration codel_target(Duration min_rtt) { return std::max<Duration>(std::chrono::milliseconds(5), min_rtt / 4); }

// CoDel's interval: max(50 ms, 2 min RTT).
Duration codel_interval(Duration min_rtt) { return std::max<Duration>(std::chrono::milliseconds(50), min_rtt * 2); }

// Drops in one CoDel dropping state after which the input counts as unresponsive: a loss-based end
// host reduces within a round trip of the first drop, so four drops (about 2.3 intervals, 4.5 min
// RTTs) with the sojourn still above the target mean input that does not slow down for drops.
constexpr std::uint32_t kUnresponsiveDrops = 4;
// Smallest bulk-lane limit while the queue is short: a paced end host's bursts are a few packets.
constexpr std::size_t kShortQueueFloor = 16;
// CoDel intervals the short queue lasts after the last sign of unresponsive input.
constexpr int kShortQueueIntervals = 8;

}  // namespace

Sender::Sender(const TcpncCoreSettings& s, std::size_t max_symbol, std::uint64_t seed)
    : s_(s), max_symbol_(max_symbol), max_packet_(max_tunnel_packet(s, max_symbol)),
      configured_max_packet_(max_packet_), splitter_(max_packet_ + kHcMaxPrefix), syn_buf_(max_packet_), rng_(seed),
      queue_(queue_capacity(s), max_packet_, s.sparse_flow_priority),
      book_(encoder_config(s, max_symbol)), plan_(s, book_.max_n()),
      rtt_(std::chrono::milliseconds(s.rto_min_ms), std::max<Duration>(std::chrono::milliseconds(s.rto_min_ms), kRtoMax),
           std::chrono::seconds(1)),
      cc_(make_controller({s.congestion_control, static_cast<double>(s.initial_cwnd_packets),
                           static_cast<double>(effective_cwnd_cap(s)), seed ^ 0x6262725F63636Bull,
                           s.startup_cwnd_growth})),
      txs_(kTxRecords), sending_buffer_(effective_sending_buffer(s)) {}

void Sender::start(const Hello& peer, TimePoint now) {
  drop_all();
  book_.start(rng_.next(), peer.max_open);
  plan_.start(peer.max_n, now);
  compress_ = s_.header_compression && (peer.flags & kHelloFlagHeaderCompression) != 0;
  compressor_.reset();
  source_limit_ = std::min<std::size_t>(max_symbol_, peer.max_packet);  // the peer's limit is on forms
  // Pieces only where a source holds a bulk segment's compressed head (a sane peer's always does).
  pieces_ = compress_ && (peer.flags & kHelloFlagFormPieces) != 0 && source_limit_ > kHcBulkFormHead;
  const std::size_t prefix = compress_ ? kHcMaxPrefix : 0;
  const std::size_t whole = source_limit_ > prefix ? source_limit_ - prefix : 0;  // every packet in one source
  max_packet_ = pieces_ ? configured_max_packet_ : std::min(configured_max_packet_, whole);
  mss_clamp_ = pieces_ ? clamped_mss(source_limit_) : 0;
  cc_->reset();
  overshoot_.reset(*cc_);
  codel_.reset();
  short_queue_until_ = {};
  delivery_.reset();
  first_round_repairs_ = 0;
  pacer_.reset();
  rtt_.reset_backoff();
  active_ = true;
}

void Sender::stop() {
  drop_all();
  active_ = false;
}

void Sender::drop_all() {
  ctr_.session_drops += book_.stop(seen_) + queue_.size() + (splitter_.pending() ? 1 : 0);
  queue_.clear();
  splitter_.clear();
  for (auto& r : txs_) r = TxRecord{};
  seen_ = 0;
  next_tx_ = oldest_in_flight_ = largest_acked_ = examined_ = s_.initial_tx;
  holes_count_ = 0;
  any_acked_ = false;
  in_flight_ = 0;
  pto_count_ = probes_due_ = 0;
  lost_since_ack_ = acked_this_ack_ = 0;
  pace_blocked_ = false;
  loss_time_.reset();
}

std::size_t Sender::buffered() const { return queue_.size() + (splitter_.pending() ? 1 : 0) + book_.unseen(seen_); }

transport::SendResult Sender::offer(std::span<const std::uint8_t> packet, TimePoint now) {
  if (!active_) return transport::SendResult::not_connected;
  if (packet.empty() || packet.size() > max_packet_) return transport::SendResult::too_big;
  const EntranceLanes::Placement where = queue_.place(packet);
  if (!entrance_open(where.lane, now) || !queue_.push(packet, now, where)) {
    ++ctr_.entrance_drops;
    // Overflowing the whole budget after CoDel's second drop in one dropping state (an interval,
    // two min RTTs, after its first): the input did not slow down for the drops.
    if (codel_.dropping() && codel_.count() >= 2) start_short_queue(now);
    return transport::SendResult::buffer_full;
  }
  ++ctr_.accepted;
  if (where.lane == EntranceLanes::Lane::sparse) ++ctr_.sparse_accepted;
  return transport::SendResult::accepted;
}

std::size_t Sender::emit(std::span<std::uint8_t> out, const CommonHeader& h, const coding::Combination& comb,
                         std::uint64_t cw_id, bool planned, TimePoint now) {
  const std::size_t hdr = write_data_header(out, h, {next_tx_});
  if (hdr == 0) return 0;
  const std::size_t ch = coding::write_header(comb.header, out.subspan(hdr));
  if (ch == 0 || out.size() < hdr + ch + comb.payload.size()) return 0;
  std::copy(comb.payload.begin(), comb.payload.end(), out.begin() + hdr + ch);
  TxRecord& r = rec(next_tx_);
  if (r.in_flight) declare_lost(r);  // ring wrapped onto an unresolved record (never in practice)
  r = TxRecord{next_tx_, now, delivery_.on_sent(now, in_flight_), cw_id, planned, true, false, false};
  cc_->on_sent(now, in_flight_);
  pacer_.on_sent(now, send_rate());
  if (in_flight_ == 0) { rto_base_ = now; oldest_in_flight_ = next_tx_; }
  last_sent_ = now;
  ++in_flight_;
  ++next_tx_;
  CwState& c = book_.state(cw_id);
  ++c.in_flight;
  if (planned) { ++c.planned_in_flight; c.last_planned_sent = now; }
  ++ctr_.combinations_sent;
  return hdr + ch + comb.payload.size();
}

std::size_t Sender::send_source(std::span<std::uint8_t> out, const CommonHeader& h, TimePoint now) {
  if (!splitter_.pending() && drop_by_aqm(now) && queue_.empty()) return 0;
  coding::CwEncoder* e = book_.filling();
  if (!e) {
    e = book_.open(plan_.n(), plan_.k());
    if (e) open_cw(*e, now);
  }
  if (!e) return 0;
  last_add_ = now;
  const coding::Combination comb = add_next_source(*e, now);
  const std::size_t n = emit(out, h, comb, e->cw_id(), true, now);
  ++ctr_.sources_sent;
  return n;
}

void Sender::open_cw(coding::CwEncoder& e, TimePoint now) {
  CwState& st = book_.state(e.cw_id());
  st.opened = now;
  st.urgent_k = plan_.urgent_repairs_for(e.planned_n(), st.planned_k);
  // Input went on past the CW before the last one: that CW's idle-slot repairs found no idle slot
  // in the time of a CW and are given up, so that its fate is settled (a round if it needs one).
  for (const OpenCw c : book_.open_cws())
    if (c.id + 1 < e.cw_id() && c.enc.closed()) c.st.planned_k = std::max(c.st.repairs_sent, c.st.urgent_k);
}

coding::Combination Sender::add_next_source(coding::CwEncoder& e, TimePoint now) {
  if (!compress_) {
    const coding::Combination c = e.add_source(queue_.front());
    pop_front(now);
    return c;
  }
  if (!splitter_.pending()) {
    const std::span<const std::uint8_t> packet = front_packet();
    const auto context = static_cast<std::uint8_t>(queue_.front_bucket() % kHcContexts);  // the flow's hash, once
    const std::span<std::uint8_t> slot = e.next_source_buffer();
    // Most forms fit one source: compressed straight into the CW's source buffer (one copy of the
    // payload). A longer one (a full header at the TUN MTU) goes through the splitter, in pieces.
    if (const std::size_t n = compressor_.compress(packet, context, slot.first(std::min(slot.size(), source_limit_)))) {
      pop_front(now);
      return e.commit_source(n);
    }
    splitter_.load(compressor_.compress(packet, context, splitter_.form_buffer()), source_limit_);
    pop_front(now);
  }
  return e.add_source(splitter_.next());
}

std::span<const std::uint8_t> Sender::front_packet() {
  std::span<const std::uint8_t> packet = queue_.front();
  if (mss_clamp_ != 0 && transport::syn_mss(packet) > mss_clamp_) {
    const std::span<std::uint8_t> copy = std::span<std::uint8_t>(syn_buf_).first(packet.size());
    std::copy(packet.begin(), packet.end(), copy.begin());
    transport::clamp_syn_mss(copy, mss_clamp_);
    ++ctr_.mss_clamped;
    packet = copy;
  }
  return packet;
}

void Sender::pop_front(TimePoint now) {
  const Duration waited = now - queue_.front_arrival();
  ctr_.entrance_wait_ns += waited.count();
  if (waited > kLongEntranceWait) {
    ++ctr_.entrance_long_waits;
    long_wait_since_ack_ = true;
  }
  queue_.pop();
}

double Sender::send_rate() const {
  const double rate = cc_->pacing_rate();
  const Duration bound = cc_->max_pacing_delay();
  if (rate <= 0 || bound <= Duration::zero() || queue_.empty()) return rate;
  return std::max(rate, static_cast<double>(queue_.size()) / std::chrono::duration<double>(bound).count());
}

double Sender::window() const {
  const double w = cc_->cwnd();
  return delivery_.delivered() > 0 ? w : w + std::min<double>(first_round_repairs_, w);
}

std::size_t Sender::send_repair(std::span<std::uint8_t> out, const CommonHeader& h, const OpenCw& c, bool planned,
                                TimePoint now) {
  const coding::Combination comb = c.enc.repair(c.st.repairs_sent);
  const std::size_t n = emit(out, h, comb, c.id, planned, now);
  ++c.st.repairs_sent;
  ++ctr_.repairs_sent;
  if (delivery_.delivered() == 0) ++first_round_repairs_;
  if (!planned) ++ctr_.retransmissions;
  return n;
}

bool Sender::flush_due(TimePoint now) const {
  if (!book_.active() || has_input()) return false;
  const coding::CwEncoder* e = const_cast<CwBook&>(book_).filling();
  return e && e->count() > 0 && now >= last_add_ + flush_delay();
}

std::optional<TimePoint> Sender::cw_age_deadline() const {
  if (!book_.active()) return std::nullopt;
  CwBook& book = const_cast<CwBook&>(book_);
  const coding::CwEncoder* e = book.filling();
  const double rate = cc_->path_rate();
  if (!e || e->count() == 0 || rate <= 0) return std::nullopt;
  // A CW's sources wait for its repairs if one is lost, so a CW that input slower than the path
  // fills lasts at most twice what a full one lasts at the path rate (input paced at the path
  // rate, even in a 0.75 gain phase, fills it sooner), and no longer than half the min RTT unless
  // a full CW itself lasts longer (the 15 ms floor of short RTTs).
  const Duration full(static_cast<std::int64_t>(1e9 * plan_.n_max() / rate));
  const Duration half_rtt = cc_->min_rtt() / 2;
  return book.state(e->cw_id()).opened + std::max(full, std::min(2 * full, half_rtt));
}

void Sender::close_due_cw(TimePoint now) {
  if (flush_due(now)) {
    flush(now);
  } else if (const auto aged = cw_age_deadline(); aged && *aged <= now) {
    ++ctr_.aged_cws;
    flush(now);
  }
}

Duration Sender::flush_delay() const {
  // At a known path rate, input that pauses for four packet times has paused (an end host's TCP
  // paced by the tunnel's own delivery sends about one packet per packet time); closing sooner
  // would cut CWs to a source or two, each then needing its own repairs.
  const Duration floor = std::chrono::microseconds(s_.flush_us);
  const double rate = cc_->path_rate();
  if (rate <= 0) return floor;
  const auto packet_times = [](double n, double per_s) { return Duration(static_cast<std::int64_t>(n * 1e9 / per_s)); };
  const Duration at_path_rate = std::clamp<Duration>(packet_times(4, rate), floor, kLongestFlushDelay);
  // Input well below the path (a window-limited host, whose ACK clock releases a packet or two at
  // a time) pauses between its groups for longer than that: four packet times at its own mean rate
  // keep such groups in one CW, where they fit in the CW's delay budget (sparser input, such as
  // interactive packets, gains nothing from waiting). Cut at every gap, a host at a tenth of a
  // 200 Mbit/s path sent CWs of about 5 sources, and under bursty loss one in ten needed a round.
  const Duration budget = std::chrono::duration_cast<Duration>(cc_->min_rtt() * s_.cw_rtt_fraction);
  const Duration longest = std::min(budget, kLongestFlushDelay);
  const double input = plan_.input_rate();
  if (input <= 0 || input >= rate) return at_path_rate;
  const Duration at_input_rate = packet_times(4, input);
  return at_input_rate <= longest ? std::max(at_path_rate, at_input_rate) : at_path_rate;
}

void Sender::flush(TimePoint) {
  coding::CwEncoder* e = book_.filling();
  if (!e || e->count() == 0) return;
  CwState& c = book_.state(e->cw_id());
  unsigned k = plan_.repairs_for(e->count(), e->planned_n(), c.planned_k);
  c.urgent_k = plan_.urgent_repairs_for(e->count(), k);
  // A pause closed the CW: the tighter idle target applies when the path has room for its repairs
  // (the plan already uses it while the input leaves room; see RedundancyPlan::spare()).
  const unsigned idle_k = plan_.idle_repairs_for(e->count());
  if (idle_k > 0 && idle_k >= k && (plan_.spare() || has_room_for(idle_k))) {
    ++ctr_.idle_cws;
    ctr_.idle_extra_repairs += idle_k - k;
    c.idle_plan = true;
    k = idle_k;
  }
  c.planned_k = k;
  e->set_plan(e->count(), std::min<unsigned>(k, s_.k_max));
  if (!e->closed()) e->close();
}

bool Sender::has_room_for(unsigned extra) const {
  const double rate = cc_->path_rate();
  const double min_rtt = std::chrono::duration<double>(cc_->min_rtt()).count();
  const double room = rate > 0 && min_rtt > 0 ? rate * min_rtt / 2 : cc_->cwnd() / 2;
  return in_flight_ + extra <= room;
}

std::optional<TimePoint> Sender::oldest_unresolved_cw_opened() {
  if (!active_ || !book_.active()) return std::nullopt;
  for (const OpenCw c : book_.open_cws())
    if (c.enc.count() > 0 && CwBook::missing(c, seen_) > 0) return c.st.opened;
  return std::nullopt;
}

std::size_t Sender::send_probe(std::span<std::uint8_t> out, const CommonHeader& h, TimePoint now) {
  ++ctr_.probes;
  for (const OpenCw c : book_.open_cws())
    if (c.enc.count() > 0 && CwBook::missing(c, seen_) > 0) return send_repair(out, h, c, false, now);
  if (has_input())
    if (const std::size_t n = send_source(out, h, now)) return n;
  std::optional<OpenCw> newest;
  for (const OpenCw c : book_.open_cws())
    if (c.enc.count() > 0 && c.st.in_flight > 0) newest.emplace(c);
  return newest ? send_repair(out, h, *newest, false, now) : 0;
}

std::optional<std::size_t> Sender::poll(std::span<std::uint8_t> out, const CommonHeader& h, TimePoint now) {
  if (!active_ || !book_.active()) return std::nullopt;
  adapt(now);
  close_due_cw(now);
  if (probes_due_ > 0) {
    --probes_due_;
    if (const std::size_t n = send_probe(out, h, now)) return n;
  }
  pace_blocked_ = false;
  if (in_flight_ >= std::max(1.0, std::floor(window()))) return std::nullopt;
  if (!pacer_.may_send(now, send_rate())) {
    pace_blocked_ = true;  // next_deadline() wakes the driver when the pacer allows
    return std::nullopt;
  }
  // One walk over the open CWs, oldest first: a coded retransmission goes at once; else the
  // oldest CW owed an urgent planned repair, then new sources, then the oldest CW whose planned
  // repairs fill what the input leaves idle.
  std::optional<std::uint64_t> urgent, filler;
  for (const OpenCw c : book_.open_cws()) {
    if (CwBook::retransmit_need(c, seen_, plan_.loss_rate()) > 0) return send_repair(out, h, c, false, now);
    if (!c.enc.closed()) continue;
    if (!urgent && c.st.repairs_sent < c.st.urgent_k) urgent = c.id;
    if (!filler && c.st.repairs_sent < c.st.planned_k) filler = c.id;
  }
  if (urgent) return send_repair(out, h, *book_.open_cw(*urgent), true, now);
  if (has_input()) {
    const std::size_t n = send_source(out, h, now);
    if (n > 0) return n;
    if (!filler) filler = first_filler();   // trying the input may have closed a CW
  }
  if (filler) return send_repair(out, h, *book_.open_cw(*filler), true, now);
  delivery_.mark_app_limited(in_flight_);  // the window allowed more than there was to send
  return std::nullopt;
}

std::optional<std::uint64_t> Sender::first_filler() {
  for (const OpenCw c : book_.open_cws())
    if (c.enc.closed() && c.st.repairs_sent < c.st.planned_k) return c.id;
  return std::nullopt;
}

void Sender::adapt(TimePoint now) {
  if (!plan_.maybe_adapt(now, path(), ctr_.sources_sent, ctr_.combinations_sent)) return;
  ++ctr_.adaptations;
  apply_plan();
}

void Sender::apply_plan() {
  if (coding::CwEncoder* f = book_.filling()) {
    // The delay bound may have shrunk below what the CW already holds: then it closes now.
    const unsigned pn = std::max(f->count(), std::clamp<unsigned>(plan_.n(), 1, plan_.n_max()));
    CwState& st = book_.state(f->cw_id());
    st.planned_k = plan_.k();
    st.urgent_k = plan_.urgent_repairs_for(pn, plan_.k());
    f->set_plan(pn, std::min<unsigned>(plan_.k(), s_.k_max));
  }
  for (const OpenCw c : book_.open_cws()) {
    if (!c.enc.closed() || c.st.repairs_sent >= c.st.planned_k) continue;
    const unsigned kept = c.st.idle_plan ? c.st.planned_k : c.st.repairs_sent;  // an idle plan stands
    c.st.planned_k = std::max(kept, plan_.repairs_for(c.enc.count(), plan_.n(), plan_.k()));
    c.st.urgent_k = std::min(c.st.planned_k, std::max(c.st.urgent_k, plan_.urgent_repairs_for(c.enc.count(), c.st.planned_k)));
  }
}

bool Sender::entrance_open(EntranceLanes::Lane lane, TimePoint now) const {
  if (buffered() >= sending_buffer_) return false;
  if (lane == EntranceLanes::Lane::sparse) return true;  // bounded by the lane's own size
  if (!auto_sized(s_) || s_.sending_buffer_packets != 0) return true;
  return queue_.bulk_size() < auto_queue_limit(now);
}

std::size_t Sender::auto_queue_limit(TimePoint now) const {
  const double rate = cc_->path_rate();
  const Duration min_rtt = cc_->min_rtt();
  if (rate <= 0 || min_rtt <= Duration::zero()) return std::min<std::size_t>(kAutoQueueCapacity, 256);
  const Duration own_probe = cc_->self_inflicted_queue_time();
  if (now < short_queue_until_) {
    const double target = std::chrono::duration<double>(codel_target(min_rtt) + own_probe).count();
    return std::clamp<std::size_t>(static_cast<std::size_t>(rate * target), kShortQueueFloor, kAutoQueueCapacity);
  }
  const double budget = std::chrono::duration<double>(transport::entrance_wait_budget(min_rtt) + own_probe).count();
  return std::clamp<std::size_t>(static_cast<std::size_t>(rate * budget), transport::kEntranceBurstPackets,
                                 kAutoQueueCapacity);
}

bool Sender::drop_by_aqm(TimePoint now) {
  if (!auto_sized(s_) || s_.sending_buffer_packets != 0) return false;
  const Duration min_rtt = cc_->min_rtt();
  if (cc_->path_rate() <= 0 || min_rtt <= Duration::zero()) return false;
  if (cc_->self_inflicted_queue_time() > Duration::zero()) return false;
  const Duration target = codel_target(min_rtt);
  const Duration interval = codel_interval(min_rtt);
  bool dropped = false;
  while (queue_.bulk_size() > 0 &&
         codel_.should_drop(queue_.bulk_front_arrival(), now, queue_.bulk_size(), target, interval)) {
    queue_.pop_bulk();
    ++ctr_.aqm_drops;
    dropped = true;
  }
  if (dropped && codel_.count() >= kUnresponsiveDrops) start_short_queue(now);
  return dropped;
}

void Sender::start_short_queue(TimePoint now) {
  const Duration min_rtt = cc_->min_rtt();
  if (min_rtt <= Duration::zero()) return;
  if (now >= short_queue_until_) ++short_queue_periods_;
  short_queue_until_ = now + codel_interval(min_rtt) * kShortQueueIntervals;
}

}  // namespace ncgw::tcpnc
