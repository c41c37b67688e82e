// Sender: acknowledgements, loss detection (RFC 9002 style: packet threshold 3 or 9/8 RTT),
// retransmission timeout (RFC 6298) and congestion events.
#include <algorithm>
#include <optional>

#include "coding/header.h"
#include "transports/common/earliest.h"
#include "transports/tcpnc/sender.h"

namespace ncgw::tcpnc {
namespace {

constexpr std::uint64_t kPacketThreshold = 3;   // RFC 9002 kPacketThreshold
constexpr std::uint64_t kLateWindow = 256;      // lost transmissions a late ACK may still withdraw

}  // namespace

Duration Sender::loss_delay() const {
  const Duration base = rtt_.has_sample() ? std::max(rtt_.srtt(), rtt_.latest()) : std::chrono::milliseconds(200);
  return std::max<Duration>(base * 9 / 8, std::chrono::milliseconds(1));
}

void Sender::advance_oldest() {
  while (oldest_in_flight_ < next_tx_ && !rec(oldest_in_flight_).in_flight) ++oldest_in_flight_;
}

void Sender::mark_acked(TxRecord& r, TimePoint now) {
  if (r.acked) return;
  const bool was_in_flight = r.in_flight;
  r.acked = true;
  r.in_flight = false;
  ++ctr_.acked;
  plan_.estimator().on_arrived(r.tx, r.sent);  // withdraws an earlier loss verdict if there was one
  CwState* c = book_.held(r.cw_id);
  if (c) ++c->acked;
  if (!was_in_flight) return;
  --in_flight_;
  if (c) {
    --c->in_flight;
    if (r.planned) --c->planned_in_flight;
  }
  delivery_.on_acked(r.delivery, now);
  ++acked_this_ack_;
  cc_->on_packet_acked(r.sent, now, rtt_.srtt());
}

void Sender::declare_lost(TxRecord& r) {
  if (!r.in_flight) return;
  r.in_flight = false;
  r.lost = true;
  --in_flight_;
  ++ctr_.declared_lost;
  delivery_.on_lost();
  ++lost_since_ack_;
  overshoot_.on_lost(r.tx, r.sent, *cc_, plan_.estimator());  // the estimator has it now or at the round's end
  CwState* c = book_.held(r.cw_id);
  if (!c) return;
  --c->in_flight;
  if (r.planned) --c->planned_in_flight;
}

void Sender::detect_losses(TimePoint now) {
  loss_time_.reset();
  if (!any_acked_) return;
  const Duration delay = loss_delay();
  for (std::uint64_t tx = oldest_in_flight_; tx < largest_acked_; ++tx) {
    TxRecord& r = rec(tx);
    if (!r.in_flight) continue;
    if (largest_acked_ - tx >= kPacketThreshold || r.sent + delay <= now) declare_lost(r);
    else if (!loss_time_ || r.sent + delay < *loss_time_) loss_time_ = r.sent + delay;
  }
  advance_oldest();
}

void Sender::apply_cw_info(const AckFrame& a) {
  const coding::Encoder& enc = book_.encoder();
  if (enc.held() == 0) return;
  const std::uint64_t first = coding::unwrap32(enc.oldest_id(), a.first_cw);
  for (const OpenCw c : book_.open_cws()) {
    if (c.id < first) { c.st.ack_complete = true; continue; }
    if (c.id - first < a.cw_count) {
      const AckCw& e = a.cws[c.id - first];
      c.st.ack_rank = (e.flags & kCwFlagKnown) ? e.rank : 0;
      c.st.ack_complete = (e.flags & kCwFlagComplete) != 0;
    } else {
      c.st.ack_rank = -1;  // beyond what the receiver listed: fall back on acked counts
    }
  }
}

void Sender::check_congestion(TimePoint now) {
  for (const OpenCw c : book_.open_cws()) {
    if (c.st.congestion_checked || !c.enc.closed()) continue;
    if (c.st.repairs_sent < c.st.planned_k || c.st.planned_in_flight > 0) continue;
    c.st.congestion_checked = true;
    if (CwBook::missing(c, seen_) > 0) {  // the CW's redundancy did not cover its losses
      ++ctr_.congestion_cws;
      cc_->on_cw_failure(c.st.last_planned_sent, now);
      plan_.on_round(now, ctr_.combinations_sent, path());
    }
  }
}

namespace {

// Whether `tx` lies in one of the ACK's ranges.
bool in_ranges(const AckFrame& a, std::uint64_t tx) {
  for (std::size_t i = 0; i < a.range_count; ++i)
    if (tx >= a.ranges[i].smallest && tx <= a.ranges[i].largest) return true;
  return false;
}

}  // namespace

void Sender::add_hole(std::uint64_t tx) {
  if (holes_count_ == holes_.size()) {  // full: forget the oldest (loss detection still resolves it)
    std::copy(holes_.begin() + 1, holes_.end(), holes_.begin());
    --holes_count_;
  }
  holes_[holes_count_++] = tx;
}

bool Sender::ack_transmissions(const AckFrame& a, TimePoint now, std::optional<Duration>& sample) {
  bool new_data = false;
  auto ack_one = [&](std::uint64_t tx) {
    TxRecord& r = rec(tx);
    if (r.tx != tx || r.acked) return;
    if (r.in_flight) new_data = true;
    if (tx == a.largest) sample = now - r.sent;
    mark_acked(r, now);
  };
  // Older transmissions not yet acknowledged (in flight or declared lost, within the late window).
  const std::uint64_t late_floor = largest_acked_ > kLateWindow ? largest_acked_ - kLateWindow : 0;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < holes_count_; ++i) {
    const std::uint64_t tx = holes_[i];
    if (in_ranges(a, tx)) { ack_one(tx); continue; }
    const TxRecord& r = rec(tx);
    if (r.tx == tx && !r.acked && (r.in_flight || tx >= late_floor)) holes_[kept++] = tx;
  }
  holes_count_ = kept;
  // Transmissions this ACK is the first to cover: acknowledged, or holes below its largest.
  for (std::uint64_t tx = examined_; tx <= a.largest; ++tx) {
    if (in_ranges(a, tx)) ack_one(tx);
    else if (!rec(tx).acked) add_hole(tx);
  }
  examined_ = std::max(examined_, a.largest + 1);
  return new_data;
}

void Sender::on_ack(const AckFrame& a, TimePoint now) {
  if (!active_ || !book_.active() || a.largest >= next_tx_ || a.seen > book_.encoder().next_source()) return;  // not ours
  const bool newest = !any_acked_ || a.largest >= largest_acked_;
  std::optional<Duration> sample;
  const bool new_data = ack_transmissions(a, now, sample);
  if (sample) rtt_.on_sample(*sample, std::chrono::microseconds(a.ack_delay_us));
  if (newest) { largest_acked_ = a.largest; any_acked_ = true; }
  if (new_data) { rtt_.reset_backoff(); rto_base_ = now; pto_count_ = 0; }
  if (a.seen > seen_) {
    seen_ = a.seen;
    book_.encoder().release_through(seen_);
  }
  if (newest) apply_cw_info(a);
  detect_losses(now);
  check_congestion(now);
  std::optional<Duration> path_rtt;
  if (sample) {
    const Duration delay = std::chrono::microseconds(a.ack_delay_us);
    path_rtt = *sample > delay ? *sample - delay : *sample;
  }
  report_ack(path_rtt, now);
}

void Sender::report_ack(std::optional<Duration> path_rtt, TimePoint now) {
  AckEvent e;
  e.now = now;
  e.acked = acked_this_ack_;
  e.lost = lost_since_ack_;
  e.sample = delivery_.finish(rtt_.has_sample() ? rtt_.min_rtt() : Duration::zero());
  e.rtt = path_rtt;
  e.srtt = rtt_.srtt();
  e.in_flight = in_flight_;
  e.delivered = delivery_.delivered();
  e.loss_burst = plan_.observed_mean_burst();
  e.entrance_held = long_wait_since_ack_;
  long_wait_since_ack_ = false;
  acked_this_ack_ = lost_since_ack_ = 0;
  cc_->on_ack(e);
  overshoot_.after_ack(*cc_, plan_.estimator());
}

void Sender::on_rto(TimePoint now) {
  ++ctr_.rto_count;
  for (std::uint64_t tx = oldest_in_flight_; tx < next_tx_; ++tx) declare_lost(rec(tx));
  advance_oldest();
  cc_->on_rto(now);
  rtt_.backoff();
  rto_base_ = now;
  loss_time_.reset();
  check_congestion(now);
}

TimePoint Sender::pto_deadline() const {
  const Duration base = rtt_.has_sample()
      ? rtt_.srtt() + std::max<Duration>(rtt_.rttvar() * 4, std::chrono::milliseconds(1))
      : std::chrono::seconds(1);
  return last_sent_ + base * (1u << std::min(pto_count_, 10u));
}

void Sender::on_timeout(TimePoint now) {
  if (!active_ || !book_.active()) return;
  if (in_flight_ > 0 && probes_due_ == 0 && pto_deadline() <= now) {
    ++pto_count_;
    probes_due_ = 2;
    last_sent_ = now;  // the backoff runs from here even if nothing can be probed
  }
  if (loss_time_ && *loss_time_ <= now) {
    detect_losses(now);
    check_congestion(now);
  }
  if (in_flight_ > 0 && rto_base_ + rtt_.rto() <= now) on_rto(now);
  close_due_cw(now);
}

std::optional<TimePoint> Sender::next_deadline() const {
  if (!active_ || !book_.active()) return std::nullopt;
  transport::Earliest t;
  t.offer(loss_time_);
  if (in_flight_ > 0) t.offer(rto_base_ + rtt_.rto());
  if (in_flight_ > 0 && probes_due_ == 0) t.offer(pto_deadline());
  if (flush_due(TimePoint::max())) t.offer(last_add_ + flush_delay());
  t.offer(cw_age_deadline());
  if (pace_blocked_) t.offer(pacer_.next(send_rate()));
  return t.get();
}

}  // namespace ncgw::tcpnc
