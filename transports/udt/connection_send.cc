// The sending side: queueing, paced packing (retransmissions first), ACK and NAK processing,
// message TTL and drop requests.
#include <algorithm>
#include <cstring>

#include "transports/udt/connection.h"
#include "transports/udt/seq.h"

namespace ncgw::udt {

std::size_t Connection::send_stream(std::span<const std::uint8_t> data, TimePoint now) {
  if (state_ != ConnState::connected || settings_.type != SocketType::stream) return 0;
  if (sbuf_.size() == 0) last_rsp_us_ = us(now);  // delay EXP, as the library does
  return sbuf_.add_stream(data, us(now));
}

bool Connection::send_message(std::span<const std::uint8_t> data, TimePoint now, int ttl_ms, bool in_order) {
  if (state_ != ConnState::connected || settings_.type != SocketType::dgram) return false;
  if (sbuf_.size() == 0) last_rsp_us_ = us(now);
  return sbuf_.add_message(data, ttl_ms, in_order, us(now));
}

bool Connection::window_open() const {
  const std::int32_t cwnd = std::min(flow_window_, static_cast<std::int32_t>(cc_.cwnd()));
  return cwnd >= seq::len(snd_last_ack_, seq::inc(snd_curr_seq_));
}

std::uint32_t Connection::packets_in_flight() const {
  const std::int32_t sent = seq::len(snd_last_data_ack_, seq::inc(snd_curr_seq_)) - 1;
  return static_cast<std::uint32_t>(std::max<std::int64_t>(0, std::int64_t{sent} - sloss_.size()));
}

bool Connection::has_data_to_send() const {
  return state_ == ConnState::connected && (!sloss_.empty() || (sbuf_.has_unsent() && window_open()));
}

void Connection::schedule_next(bool probe, TimePoint now) {
  const std::int64_t now_ns = transport::ns_since_epoch(now);
  const std::int64_t base = std::max(next_send_ns_, now_ns - settings_.pacing_credit_us * 1000);
  next_send_ns_ = probe ? base : base + static_cast<std::int64_t>(cc_.period_us() * 1000.0);
}

std::size_t Connection::write_data(std::span<std::uint8_t> out, std::int32_t s, std::uint32_t off, TimePoint now) {
  const auto data = sbuf_.data(off);
  if (out.size() < wire::kHeaderSize + data.size()) return 0;
  const auto ts = static_cast<std::uint32_t>(us(now) - us(start_));
  write_data_header(out, s, sbuf_.block(off).msg_word, ts, static_cast<std::uint32_t>(peer_id_));
  if (!data.empty()) std::memcpy(out.data() + wire::kHeaderSize, data.data(), data.size());
  ++st_.sent;
  return wire::kHeaderSize + data.size();
}

bool Connection::drop_expired(std::int32_t s, std::uint32_t off, TimePoint now) {
  const auto& b = sbuf_.block(off);
  if (b.ttl_ms < 0 || (us(now) - b.origin_us) / 1000 <= b.ttl_ms) return false;
  const auto [f, l] = sbuf_.message_extent(off);
  DropRequest d{msg_no(b.msg_word), seq::add(snd_last_data_ack_, static_cast<std::int32_t>(f)),
                seq::add(snd_last_data_ack_, static_cast<std::int32_t>(l))};
  ctrl_.commit(write_drop_request(ctrl_.reserve(), static_cast<std::uint32_t>(peer_id_), d));
  ++st_.drops_sent;
  sloss_.remove(d.first, d.last);
  if (l >= sbuf_.unsent_offset()) {  // parts never sent: skip them
    sbuf_.skip_unsent_to(l + 1);
    snd_curr_seq_ = seq::max(snd_curr_seq_, d.last);
    cc_.set_snd_curr_seq(snd_curr_seq_);
  }
  (void)s;
  return true;
}

std::optional<std::size_t> Connection::pack_data(std::span<std::uint8_t> out, TimePoint now) {
  if (state_ != ConnState::connected || transport::ns_since_epoch(now) < next_send_ns_) return std::nullopt;
  while (auto lost = sloss_.pop_first()) {
    const std::int32_t off = seq::off(snd_last_data_ack_, *lost);
    if (off < 0 || static_cast<std::uint32_t>(off) >= sbuf_.unsent_offset()) continue;
    if (drop_expired(*lost, static_cast<std::uint32_t>(off), now)) continue;
    const std::uint32_t in_flight = packets_in_flight();
    const std::size_t len = write_data(out, *lost, static_cast<std::uint32_t>(off), now);
    if (len == 0) return std::nullopt;
    cc_.on_sent(*lost, now, in_flight, true);
    ++st_.retransmitted;
    schedule_next(false, now);
    return len;
  }
  if (!window_open()) return std::nullopt;
  if (!sbuf_.has_unsent()) {
    cc_.on_app_limited(packets_in_flight());  // the window allowed more than there was to send
    return std::nullopt;
  }
  const std::int32_t s = seq::inc(snd_curr_seq_);
  const std::uint32_t off = sbuf_.unsent_offset();
  const std::uint32_t in_flight = packets_in_flight();
  const std::size_t len = write_data(out, s, off, now);
  if (len == 0) return std::nullopt;
  cc_.on_sent(s, now, in_flight, false);
  snd_curr_seq_ = s;
  cc_.set_snd_curr_seq(s);
  sbuf_.mark_sent();
  schedule_next((s & wire::kProbeMask) == 0, now);  // packet pair: the next one goes back-to-back
  return len;
}

void Connection::on_ack(const Packet& p, TimePoint now) {
  const auto a = parse_ack(p.payload);
  if (!a) return;
  if (a->words == 1) {  // light ACK: only the ACK number
    // One beyond what was sent is ignored: it would drive the flow window negative and stall.
    if (seq::cmp(a->ack, snd_last_ack_) >= 0 && seq::cmp(a->ack, seq::inc(snd_curr_seq_)) <= 0) {
      flow_window_ = std::max(0, flow_window_ - seq::off(snd_last_ack_, a->ack));
      snd_last_ack_ = a->ack;
    }
    return;
  }
  const std::uint32_t ack2_info = p.info;
  queue_control(wire::ControlType::ack2, ack2_info, {});
  if (seq::cmp(a->ack, seq::inc(snd_curr_seq_)) > 0) {  // acknowledges what was never sent
    state_ = ConnState::broken;
    return;
  }
  if (seq::cmp(a->ack, snd_last_ack_) >= 0) {
    flow_window_ = std::max(0, a->avail_buffer);
    snd_last_ack_ = a->ack;
  }
  const std::int32_t offset = seq::off(snd_last_data_ack_, a->ack);
  if (offset <= 0) return;  // repeated ACK
  sbuf_.ack(static_cast<std::uint32_t>(offset));
  const std::int32_t previous_ack = snd_last_data_ack_;
  snd_last_data_ack_ = a->ack;
  sloss_.remove_upto(seq::dec(a->ack));
  update_rtt(a->rtt_us, now);
  if (a->words == 6) {
    // Widened: a peer may write rates near INT32_MAX.
    if (a->arrival_rate > 0) {
      delivery_rate_ = static_cast<std::int32_t>((std::int64_t{delivery_rate_} * 7 + a->arrival_rate) >> 3);
    }
    if (a->capacity > 0) bandwidth_ = static_cast<std::int32_t>((std::int64_t{bandwidth_} * 7 + a->capacity) >> 3);
    cc_.set_rcv_rate(delivery_rate_);
    cc_.set_bandwidth(bandwidth_);
  }
  cc_.on_ack(previous_ack, a->ack, now, packets_in_flight(), a->words == 6 ? a->arrival_rate : 0, a->rtt_us);
  ++st_.acks_received;
}

void Connection::on_nak(const Packet& p, TimePoint now) {
  if (p.payload.size() < 4) return;
  const std::uint32_t w0 = (std::uint32_t{p.payload[0]} << 24) | (std::uint32_t{p.payload[1]} << 16) |
                           (std::uint32_t{p.payload[2]} << 8) | p.payload[3];
  std::uint32_t fresh = 0;
  const bool ok = for_each_nak_range(p.payload, [&](std::int32_t a, std::int32_t b) {
    if (seq::cmp(a, b) > 0 || seq::cmp(b, snd_curr_seq_) > 0) return false;
    if (seq::cmp(a, snd_last_ack_) >= 0) {
      fresh += sloss_.insert(a, b);
      cc_.on_loss_range(a, b);
    } else if (seq::cmp(b, snd_last_ack_) >= 0) {
      fresh += sloss_.insert(snd_last_ack_, b);
      cc_.on_loss_range(snd_last_ack_, b);
    }
    return true;
  });
  if (!ok) {
    state_ = ConnState::broken;  // the library treats an impossible loss report as an attack
    return;
  }
  st_.snd_loss += fresh;
  ++st_.naks_received;
  // The library feeds every NAK to CUDTCC; a repeated report of losses still queued for
  // retransmission (a periodic NAK) is not a new congestion signal, so it is not counted here.
  if (fresh > 0) cc_.on_loss(static_cast<std::int32_t>(w0 & 0x7FFFFFFFu));
  if (!sloss_.empty()) next_send_ns_ = std::min(next_send_ns_, transport::ns_since_epoch(now));
}

}  // namespace ncgw::udt
