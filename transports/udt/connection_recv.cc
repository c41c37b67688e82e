// The receiving side and control dispatch: data arrival with immediate NAK on gaps, ACK / light ACK
// generation, ACK2 RTT samples, periodic NAK, and the other control types.
#include <algorithm>
#include <cstdlib>

#include "transports/udt/connection.h"
#include "transports/udt/seq.h"

namespace ncgw::udt {

void Connection::on_packet(const Packet& p, TimePoint now) {
  if (state_ == ConnState::connecting) {
    if (p.control && p.type == wire::ControlType::handshake) {
      on_handshake_connecting(p, now);
      return;
    }
    // rendezvous: data or keep-alive means the peer is connected; use the recorded response
    const bool peer_up = !p.control || p.type == wire::ControlType::keepalive;
    if (!(role_ == Role::rendezvous && have_res_ && res_.sock_type != 0 && peer_up)) return;
    establish(res_.isn, res_.socket_id, res_.mss, res_.flight_flag_size, now);
  }
  if (state_ != ConnState::connected) return;
  heard_from_peer(now);
  if (p.control) {
    on_control(p, now);
  } else {
    on_data(p, now);
  }
  if (state_ == ConnState::connected) check_ack(now);
}

void Connection::on_control(const Packet& p, TimePoint now) {
  switch (p.type) {
    case wire::ControlType::ack: on_ack(p, now); break;
    case wire::ControlType::ack2: on_ack2(p, now); break;
    case wire::ControlType::nak: on_nak(p, now); break;
    case wire::ControlType::congestion_warning: cc_.on_congestion_warning(); break;
    case wire::ControlType::handshake: on_handshake_connected(p); break;
    case wire::ControlType::shutdown:
      peer_closed_ = true;
      state_ = ConnState::closed;
      break;
    case wire::ControlType::drop_request:
      if (const auto d = parse_drop_request(p)) rcv_.drop(*d);
      break;
    default: break;  // keep-alive, peer error, user-defined: nothing to do
  }
}

void Connection::on_data(const Packet& p, TimePoint now) {
  ++pkt_count_;
  ++st_.received;
  arrival_.on_arrival(p.seq, us(now));
  const std::uint32_t holes_before = rcv_.holes();
  std::optional<Receiver::Range> gap;
  if (rcv_.on_data(p.seq, p.msg_word, p.payload, gap) != Receiver::Arrival::stored) return;
  if (gap) {  // immediate NAK for the new gap
    const Receiver::Range r[1] = {*gap};
    ctrl_.commit(write_nak(ctrl_.reserve(), static_cast<std::uint32_t>(peer_id_), r));
    ++st_.naks_sent;
    st_.rcv_loss += static_cast<std::uint64_t>(seq::len((*gap)[0], (*gap)[1]));
    if (holes_before == 0) next_nak_us_ = us(now) + nak_interval_us();
  }
  // an irregular size usually ends a message: acknowledge at once
  if (p.payload.size() < payload_) next_ack_us_ = us(now);  // a short packet: ACK at once (a libudt peer on IPv6 sends 20 bytes more than we do)
}

void Connection::check_ack(TimePoint now) {
  if (us(now) >= next_ack_us_) {
    send_ack(now, false);
    next_ack_us_ = us(now) + wire::kSynUs;
    pkt_count_ = 0;
    light_ack_count_ = 1;
  } else if (wire::kLightAckPackets * light_ack_count_ <= pkt_count_) {
    send_ack(now, true);
    ++light_ack_count_;
  }
}

void Connection::send_ack(TimePoint now, bool light) {
  const std::int32_t ack = rcv_.ack_point();
  if (ack == rcv_last_ack_ack_) return;
  const auto dest = static_cast<std::uint32_t>(peer_id_);
  if (light) {
    AckContent a;
    a.words = 1;
    a.ack = ack;
    ctrl_.commit(write_ack(ctrl_.reserve(), dest, 0, a));
    return;
  }
  if (seq::cmp(ack, rcv_last_ack_) > 0) {
    rcv_last_ack_ = ack;
  } else if (ack != rcv_last_ack_ || us(now) - last_full_ack_us_ < rtt_us_ + 4 * rtt_var_us_) {
    return;
  }
  if (seq::cmp(rcv_last_ack_, rcv_last_ack_ack_) <= 0) return;
  ack_seq_ = seq::inc_ack(ack_seq_);
  AckContent a;
  a.ack = rcv_last_ack_;
  a.rtt_us = rtt_us_;
  a.rtt_var_us = rtt_var_us_;
  a.avail_buffer = rcv_.avail_buffer();
  a.words = 4;
  if (us(now) - last_full_ack_us_ > wire::kSynUs) {
    a.words = 6;
    a.arrival_rate = arrival_.arrival_rate();
    a.capacity = arrival_.capacity();
    last_full_ack_us_ = us(now);
  }
  ctrl_.commit(write_ack(ctrl_.reserve(), dest, ack_seq_, a));
  ack_window_.store(ack_seq_, rcv_last_ack_, us(now));
  ++st_.acks_sent;
}

void Connection::on_ack2(const Packet& p, TimePoint now) {
  const auto s = ack_window_.acknowledge(static_cast<std::int32_t>(p.info), us(now));
  if (!s || s->rtt_us <= 0) return;
  update_rtt(s->rtt_us, now);
  if (seq::cmp(s->ack, rcv_last_ack_ack_) > 0) rcv_last_ack_ack_ = s->ack;
}

void Connection::update_rtt(std::int32_t sample_us, TimePoint now) {
  if (sample_us <= 0) return;
  // A peer's ACK can carry any RTT: clamp it, and average in 64 bits (no signed overflow).
  constexpr std::int32_t kMaxRttSampleUs = 60'000'000;
  sample_us = std::min(sample_us, kMaxRttSampleUs);
  const std::int64_t deviation = std::abs(std::int64_t{sample_us} - rtt_us_);
  rtt_var_us_ = static_cast<std::int32_t>((std::int64_t{rtt_var_us_} * 3 + deviation) >> 2);
  rtt_us_ = static_cast<std::int32_t>((std::int64_t{rtt_us_} * 7 + sample_us) >> 3);
  min_rtt_.update(rtt_us_, static_cast<std::uint64_t>(us(now)));
  cc_.set_rtt(rtt_us_);
}

std::int64_t Connection::nak_interval_us() const {
  // the library's formula with 2 x RTT: a retransmission requested one NAK ago is still in flight
  std::int64_t t = 2 * std::int64_t{rtt_us_} + 4 * std::int64_t{rtt_var_us_};
  const std::int32_t speed = arrival_.arrival_rate();
  if (speed > 0) t += std::int64_t{rcv_.holes()} * 1'000'000 / speed;
  return std::max(t, settings_.min_nak_interval_us);
}

void Connection::check_periodic_nak(TimePoint now) {
  if (!settings_.periodic_nak || rcv_.holes() == 0 || us(now) < next_nak_us_) return;
  nak_pending_ = true;
  next_nak_us_ = us(now) + nak_interval_us();
}

std::size_t Connection::pack_periodic_nak(std::span<std::uint8_t> out) {
  nak_pending_ = false;
  std::array<Receiver::Range, 128> ranges;
  const std::size_t max_ranges = std::min<std::size_t>(ranges.size(), (payload_ + wire::kHeaderSize) / 8);
  const std::size_t n = rcv_.loss_ranges(std::span(ranges.data(), max_ranges));
  if (n == 0) return 0;
  const std::size_t len = write_nak(out, static_cast<std::uint32_t>(peer_id_), std::span(ranges.data(), n));
  if (len > 0) ++st_.naks_sent;
  return len;
}

}  // namespace ncgw::udt
