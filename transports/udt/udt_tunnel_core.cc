#include "transports/udt/udt_tunnel_core.h"

#include "transports/udt/mss_rule.h"

namespace ncgw::udt {

using transport::SendResult;
using transport::TimePoint;

UdtTunnelSettings default_tunnel_settings() {
  UdtTunnelSettings s;
  s.conn.type = SocketType::dgram;
  s.conn.peer_idle_timeout_us = 10'000'000;
  s.conn.min_nak_interval_us = 50'000;
  s.conn.max_decreases_per_epoch = 1;  // see docs/udt-wire.md: 97% vs 89% of a drop-tail 100 Mbit/s path
  return s;
}

UdtTunnelCore::UdtTunnelCore(const UdtTunnelSettings& s) : s_(s), ep_(s.seed) {
  s_.conn.type = SocketType::dgram;
  if (s_.role == TunnelRole::listener) ep_.listen(s_.conn);
}

const Connection* UdtTunnelCore::connection() const {
  return current_ ? const_cast<Endpoint&>(ep_).find(*current_) : nullptr;
}

void UdtTunnelCore::start_connection(TimePoint now) {
  current_ = s_.role == TunnelRole::rendezvous ? ep_.rendezvous(s_.peer, s_.conn, now)
                                               : ep_.connect(s_.peer, s_.conn, now);
  counted_ = false;
}

void UdtTunnelCore::drop_current() {
  if (!current_) return;
  if (const Connection* c = ep_.find(*current_)) {
    const ConnStats st = c->stats();
    past_.sent += st.sent;
    past_.received += st.received;
    past_.retransmitted += st.retransmitted;
    past_.snd_loss += st.snd_loss;
    past_.rcv_loss += st.rcv_loss;
  }
  ep_.remove(*current_);
  current_.reset();
}

void UdtTunnelCore::maintain(TimePoint now) {
  const std::int64_t n = transport::ns_since_epoch(now);
  if (s_.role == TunnelRole::listener) {
    while (const auto id = ep_.accept()) {  // a newer caller (e.g. the peer restarted) replaces the old
      drop_current();
      current_ = *id;
      counted_ = false;
    }
  } else if (!started_) {
    started_ = true;
    start_connection(now);
  }
  Connection* c = current_ ? ep_.find(*current_) : nullptr;
  if (c && c->connected() && !counted_) {
    ++sessions_;
    counted_ = true;
  }
  const bool dead = c && (c->state() == ConnState::broken || c->state() == ConnState::timed_out ||
                          c->state() == ConnState::rejected || (c->state() == ConnState::closed && !c->readable()));
  if (dead) {
    drop_current();
    reconnect_at_ns_ = n + s_.reconnect_delay_us * 1000;
  }
  if (!current_ && s_.role != TunnelRole::listener && n >= reconnect_at_ns_) start_connection(now);
}

void UdtTunnelCore::on_datagram(std::span<const std::uint8_t> bytes, TimePoint now) {
  maintain(now);
  ep_.on_datagram(bytes, s_.peer, now);
  maintain(now);
}

void UdtTunnelCore::on_timeout(TimePoint now) {
  maintain(now);
  ep_.on_timeout(now);
  maintain(now);
}

SendResult UdtTunnelCore::send(std::span<const std::uint8_t> ip_packet, TimePoint now) {
  maintain(now);
  Connection* c = current_ ? ep_.find(*current_) : nullptr;
  if (!c || !c->connected()) {
    ++dropped_not_connected_;
    return SendResult::not_connected;
  }
  if (ip_packet.size() > c->payload_size()) {
    ++dropped_too_big_;
    return SendResult::too_big;
  }
  if (!c->send_message(ip_packet, now, s_.message_ttl_ms, true)) {
    ++dropped_full_;
    return SendResult::buffer_full;
  }
  return SendResult::accepted;
}

std::optional<std::size_t> UdtTunnelCore::poll_transmit(std::span<std::uint8_t> out, TimePoint now) {
  maintain(now);
  const auto t = ep_.poll_transmit(out, now);
  if (!t) return std::nullopt;
  return t->size;
}

std::optional<std::size_t> UdtTunnelCore::poll_deliver(std::span<std::uint8_t> out) {
  if (!current_) return std::nullopt;
  Connection* c = ep_.find(*current_);
  return c ? c->recv_message(out) : std::nullopt;
}

std::optional<TimePoint> UdtTunnelCore::next_deadline() const {
  if (!started_ && s_.role != TunnelRole::listener) return transport::time_from_ns(0);
  auto d = ep_.next_deadline();
  const bool reconnecting = !current_ && s_.role != TunnelRole::listener;
  if (reconnecting) {
    const TimePoint r = transport::time_from_ns(reconnect_at_ns_);
    if (!d || r < *d) d = r;
  }
  const Connection* c = connection();
  if (c && c->state() != ConnState::connecting && c->state() != ConnState::connected) {
    return transport::time_from_ns(0);  // let maintain() retire it
  }
  return d;
}

std::size_t UdtTunnelCore::max_payload() const {
  const std::size_t configured = s_.conn.mss - s_.conn.ip_udp_overhead - wire::kHeaderSize;
  // The handshake takes the smaller of the two sides' MSS: a peer with a smaller one lowers what
  // this tunnel carries (and the MTU an ICMP Packet Too Big reports).
  const Connection* c = current_ ? ep_.find(*current_) : nullptr;
  if (c && c->connected()) return std::min<std::size_t>(configured, c->payload_size());
  return configured;
}

double UdtTunnelCore::mss_rule_bytes(const ConnStats& st) const {
  // Paper 000's eq. 15 from what this connection measured (RTT, delivery rate, loss reported by
  // NAKs), capped by the MSS in use: the MSS it would advise for the next connection.
  const double header = s_.conn.ip_udp_overhead + wire::kHeaderSize;
  const double loss = st.sent > 0 ? static_cast<double>(st.snd_loss) / static_cast<double>(st.sent) : 0.0;
  const MssRuleInputs in{header, st.rtt_us / 2e6, st.delivery_rate_pps * static_cast<double>(max_payload()),
                         bit_error_rate(std::min(loss, 0.5), s_.conn.mss)};
  return suitable_mss(in, s_.conn.mss, wire::kMinMss);
}

std::vector<transport::StatEntry> UdtTunnelCore::stats() const {
  const Connection* c = connection();
  const ConnStats st = c ? c->stats() : ConnStats{};
  const double payload = static_cast<double>(max_payload());
  return {
      {"connected", c && c->connected() ? 1.0 : 0.0},
      {"sessions", static_cast<double>(sessions_)},
      {"sending_period_us", st.period_us},
      {"congestion_window_packets", st.cwnd},
      {"flow_window_packets", static_cast<double>(st.flow_window)},
      {"rtt_ms", st.rtt_us / 1000.0},
      {"rtt_var_ms", st.rtt_var_us / 1000.0},
      {"estimated_capacity_mbps", st.capacity_pps * payload * 8 / 1e6},
      {"delivery_rate_mbps", st.delivery_rate_pps * payload * 8 / 1e6},
      {"packets_in_flight", static_cast<double>(st.in_flight)},
      {"send_buffer_packets", static_cast<double>(st.send_buffered)},
      {"packets_sent", static_cast<double>(past_.sent + st.sent)},
      {"packets_received", static_cast<double>(past_.received + st.received)},
      {"packets_retransmitted", static_cast<double>(past_.retransmitted + st.retransmitted)},
      {"sender_loss_packets", static_cast<double>(past_.snd_loss + st.snd_loss)},
      {"receiver_loss_packets", static_cast<double>(past_.rcv_loss + st.rcv_loss)},
      {"dropped_not_connected", static_cast<double>(dropped_not_connected_)},
      {"dropped_buffer_full", static_cast<double>(dropped_full_)},
      {"dropped_too_big", static_cast<double>(dropped_too_big_)},
      {"slow_start_threshold_packets", st.ssthresh},  // PaUDT only (0 under CUDTCC)
      {"mss_bytes", static_cast<double>(s_.conn.mss)},
      {"mss_rule_bytes", mss_rule_bytes(st)},
  };
}

}  // namespace ncgw::udt
