// Timers and draining: handshake retries, ACK timer, periodic NAK, EXP with backoff, keep-alive,
// and the order in which queued packets leave (control first, then paced data).
#include <algorithm>

#include "transports/udt/connection.h"
#include "transports/udt/seq.h"

namespace ncgw::udt {

void Connection::heard_from_peer(TimePoint now) {
  awaiting_caller_ = false;
  exp_count_ = 1;
  last_rsp_us_ = last_heard_us_ = us(now);
}

void Connection::queue_control(wire::ControlType t, std::uint32_t info, std::span<const std::uint32_t> words) {
  ctrl_.commit(write_control(ctrl_.reserve(), t, info, static_cast<std::uint32_t>(peer_id_), words));
}

static std::int64_t exp_interval_us(std::int32_t count, std::int32_t rtt, std::int32_t var) {
  const std::int64_t t = count * (std::int64_t{rtt} + 4 * std::int64_t{var}) + wire::kSynUs;
  return std::max(t, count * wire::kMinExpUs);
}

void Connection::check_exp(TimePoint now) {
  const std::int64_t n = us(now);
  if (settings_.peer_idle_timeout_us > 0 && n - last_heard_us_ > settings_.peer_idle_timeout_us) {
    state_ = ConnState::broken;
    return;
  }
  if (n <= last_rsp_us_ + exp_interval_us(exp_count_, rtt_us_, rtt_var_us_)) return;
  if (exp_count_ > wire::kBrokenExpCount && n - last_rsp_us_ > wire::kBrokenSilenceUs) {
    state_ = ConnState::broken;
    return;
  }
  if (sbuf_.size() > 0) {
    if (seq::inc(snd_curr_seq_) != snd_last_ack_ && sloss_.empty()) {
      st_.snd_loss += sloss_.insert(snd_last_ack_, snd_curr_seq_);  // resend all unacknowledged
    }
    cc_.on_timeout(now);
    next_send_ns_ = std::min(next_send_ns_, transport::ns_since_epoch(now));
  } else if (awaiting_caller_) {
    send_handshake(static_cast<std::uint32_t>(peer_id_), repeated_answer());  // the response may have been lost
  } else {
    queue_control(wire::ControlType::keepalive, 0, {});
  }
  ++exp_count_;
  last_rsp_us_ = n;
}

void Connection::on_timeout(TimePoint now) {
  if (state_ == ConnState::connecting) {
    retry_handshake(now);
    return;
  }
  if (state_ != ConnState::connected) return;
  check_ack(now);
  check_periodic_nak(now);
  check_exp(now);
}

std::optional<std::size_t> Connection::poll_transmit(std::span<std::uint8_t> out, TimePoint now) {
  if (const std::size_t n = ctrl_.pop(out)) return n;
  if (nak_pending_ && state_ == ConnState::connected) {
    if (const std::size_t n = pack_periodic_nak(out)) return n;
  }
  return pack_data(out, now);
}

std::optional<TimePoint> Connection::next_deadline() const {
  if (!ctrl_.empty() || nak_pending_) return transport::time_from_ns(0);
  auto at_us = [](std::int64_t t) { return transport::time_from_ns(t * 1000); };
  if (state_ == ConnState::connecting) {
    return at_us(std::min(last_req_us_ + wire::kHandshakeRetryUs, connect_deadline_us_ + 1));
  }
  if (state_ != ConnState::connected) return std::nullopt;
  std::int64_t d = last_rsp_us_ + exp_interval_us(exp_count_, rtt_us_, rtt_var_us_) + 1;
  if (settings_.peer_idle_timeout_us > 0) d = std::min(d, last_heard_us_ + settings_.peer_idle_timeout_us + 1);
  if (rcv_.ack_point() != rcv_last_ack_ack_) d = std::min(d, next_ack_us_);
  if (settings_.periodic_nak && rcv_.holes() > 0) d = std::min(d, next_nak_us_);
  TimePoint t = at_us(d);
  if (has_data_to_send()) t = std::min(t, transport::time_from_ns(next_send_ns_));
  return t;
}

void Connection::close(TimePoint now) {
  (void)now;
  if (state_ == ConnState::connected) {
    for (int i = 0; i < wire::kShutdownCopies; ++i) queue_control(wire::ControlType::shutdown, 0, {});
  }
  if (state_ == ConnState::connected || state_ == ConnState::connecting) state_ = ConnState::closed;
}

std::int64_t Connection::unsent_wait_us(TimePoint now) const {
  if (!sbuf_.has_unsent()) return 0;
  return std::max<std::int64_t>(0, us(now) - sbuf_.block(sbuf_.unsent_offset()).origin_us);
}

ConnStats Connection::stats() const {
  ConnStats s = st_;
  s.period_us = cc_.period_us();
  s.cwnd = cc_.cwnd();
  s.flow_window = flow_window_;
  s.rtt_us = rtt_us_;
  s.rtt_var_us = rtt_var_us_;
  s.min_rtt_us = min_rtt_.best();
  s.capacity_pps = bandwidth_;
  s.delivery_rate_pps = delivery_rate_;
  s.control_dropped = ctrl_.dropped();
  s.in_flight = state_ == ConnState::connected ? static_cast<std::uint32_t>(seq::len(snd_last_ack_, seq::inc(snd_curr_seq_)) - 1) : 0;
  s.send_buffered = sbuf_.size();
  s.unsent = unsent_packets();
  s.slow_start = cc_.slow_start();
  s.ssthresh = cc_.ssthresh();
  return s;
}

}  // namespace ncgw::udt
