#include "transports/tcpnc/tcpnc_core.h"

#include <algorithm>
#include <utility>

#include "transports/common/earliest.h"

namespace ncgw::tcpnc {

std::size_t max_symbol_for(const TcpncCoreSettings& s) {
  const std::size_t overhead = kDataHeaderSize + kCodingOverhead;
  return s.max_datagram_bytes > overhead ? s.max_datagram_bytes - overhead : 0;
}

std::size_t max_payload_for(const TcpncCoreSettings& s) { return max_tunnel_packet(s, max_symbol_for(s)); }

TcpncCore::TcpncCore(const TcpncCoreSettings& settings, std::uint64_t seed)
    : s_(settings), rng_(seed),
      sender_(settings, max_symbol_for(settings), rng_.next()), receiver_(settings, max_symbol_for(settings)) {
  my_session_ = new_session_id();
}

std::uint32_t TcpncCore::new_session_id() {
  std::uint32_t id = 0;
  while (id == 0 || id == my_session_) id = static_cast<std::uint32_t>(rng_.next());
  return id;
}

void TcpncCore::adopt_peer(std::uint32_t peer, const Hello& limits, bool from_hello, TimePoint now) {
  if (peer_session_ != 0) {
    ++ctr_.peer_restarts;
    if (from_hello) my_session_ = new_session_id();
  }
  last_adopt_ = now;
  peer_session_ = peer;
  receiver_.start(s_.header_compression && (limits.flags & kHelloFlagHeaderCompression) != 0);
  sender_.start(limits, now);
  held_ack_size_ = 0;
  ack_hold_until_.reset();
  hello_due_ = false;
}

void TcpncCore::reset_session(TimePoint now) {
  ++ctr_.session_resets;
  sender_.stop();
  receiver_.stop();
  held_ack_size_ = 0;
  ack_hold_until_.reset();
  my_session_ = new_session_id();
  peer_session_ = 0;
  hello_due_ = true;
  next_hello_ = now;
  last_heard_ = now;
}

void TcpncCore::on_hello(const CommonHeader& h, std::span<const std::uint8_t> bytes, TimePoint now) {
  const auto body = parse_hello(bytes);
  if (!body) { ++ctr_.malformed; return; }
  // A HELLO_ACK addressed to an earlier session of ours is stale.
  if (h.type == PacketType::kHelloAck && h.dst_session != my_session_) return;
  if (h.src_session != peer_session_) {
    // A HELLO_ACK answers our own HELLO (its dst is our session): never held back.
    const bool hello = h.type == PacketType::kHello;
    if (hello && last_adopt_ && now - *last_adopt_ < kMinAdoptInterval) return void(++ctr_.hellos_ignored);
    adopt_peer(h.src_session, *body, hello, now);
  }
  last_heard_ = now;
  if (h.type == PacketType::kHello) hello_ack_due_ = true;
}

void TcpncCore::on_datagram(std::span<const std::uint8_t> bytes, TimePoint now) {
  now_ = now;
  ++ctr_.datagrams_received;
  const auto h = parse_common(bytes);
  if (!h) { ++ctr_.malformed; return; }
  if (h->type == PacketType::kHello || h->type == PacketType::kHelloAck) return on_hello(*h, bytes, now);
  if (peer_session_ == 0 || h->src_session != peer_session_ || h->dst_session != my_session_) {
    // From a session we do not know (the peer restarted and lost our HELLO, or we did): say hello.
    ++ctr_.unknown_session;
    if (h->src_session != peer_session_ && now >= next_hello_) hello_due_ = true;
    return;
  }
  last_heard_ = now;
  if (h->type == PacketType::kData) {
    std::span<const std::uint8_t> coded;
    if (const auto d = parse_data(bytes, coded)) receiver_.on_data(*d, coded, now);
    else ++ctr_.malformed;
  } else if (h->type == PacketType::kAck) {
    if (const auto a = parse_ack(bytes)) sender_.on_ack(*a, now);
    else ++ctr_.malformed;
  } else if (h->type == PacketType::kDataAck) {
    const auto parts = split_data_ack(bytes);
    const auto a = parts ? parse_ack_body(parts->ack_body) : std::nullopt;
    std::span<const std::uint8_t> coded;
    const auto d = a ? parse_data(parts->data, coded) : std::nullopt;
    if (!d) return void(++ctr_.malformed);
    sender_.on_ack(*a, now);
    receiver_.on_data(*d, coded, now);
  }
}

void TcpncCore::on_timeout(TimePoint now) {
  now_ = now;
  const auto dead = std::chrono::milliseconds(s_.dead_peer_ms);
  if (established() && now >= last_heard_ + dead) reset_session(now);
  if (established()) {
    if (const auto opened = sender_.oldest_unresolved_cw_opened(); opened && now >= *opened + dead) {
      ++ctr_.stuck_cw_resets;
      reset_session(now);
    }
  }
  if (!established() && now >= next_hello_) hello_due_ = true;
  if (established() && now >= last_sent_ + std::chrono::milliseconds(s_.keepalive_ms)) keepalive_due_ = true;
  sender_.on_timeout(now);
  receiver_.on_timeout(now);
}

transport::SendResult TcpncCore::send(std::span<const std::uint8_t> ip_packet, TimePoint now) {
  if (ip_packet.size() > sender_.max_packet()) return transport::SendResult::too_big;
  return sender_.offer(ip_packet, now);
}

std::optional<std::size_t> TcpncCore::poll_control(std::span<std::uint8_t> out, TimePoint now) {
  std::size_t n = 0;
  if (hello_ack_due_ && established()) {
    n = write_hello(out, header(PacketType::kHelloAck), receiver_.limits());
    hello_ack_due_ = false;
    ++ctr_.hello_acks_sent;
  } else if (hello_due_) {
    n = write_hello(out, header(PacketType::kHello), receiver_.limits());
    hello_due_ = false;
    next_hello_ = now + std::chrono::milliseconds(s_.hello_interval_ms);
    ++ctr_.hellos_sent;
  } else if (keepalive_due_ && established()) {
    n = write_common(out, header(PacketType::kKeepalive));
    keepalive_due_ = false;
    ++ctr_.keepalives_sent;
  }
  if (n == 0) return std::nullopt;
  return n;
}

std::optional<std::size_t> TcpncCore::poll_transmit(std::span<std::uint8_t> out, TimePoint now) {
  now_ = now;
  auto n = poll_control(out, now);
  if (!n && established()) n = poll_data_and_ack(out, now);
  if (n) { last_sent_ = now; keepalive_due_ = false; }
  return n;
}

transport::Duration TcpncCore::ack_hold() const {
  if (last_data_room_ < kAckBodyMinSize + kAckTrailerSize) return transport::Duration::zero();
  return std::min<transport::Duration>(std::chrono::milliseconds(1), sender_.min_rtt() / 8);
}

std::optional<std::size_t> TcpncCore::send_ack_alone(std::span<std::uint8_t> out, TimePoint now) {
  ack_hold_until_.reset();
  if (held_ack_size_ == 0) return receiver_.poll_ack(out, header(PacketType::kAck), now);
  if (held_ack_size_ > out.size()) return std::nullopt;
  std::copy_n(held_ack_.begin(), held_ack_size_, out.begin());
  return std::exchange(held_ack_size_, 0);
}

std::optional<std::size_t> TcpncCore::poll_data_and_ack(std::span<std::uint8_t> out, TimePoint now) {
  const auto room = out.first(std::min<std::size_t>(out.size(), s_.max_datagram_bytes));
  if (held_ack_size_ > 0) return send_ack_alone(room, now);
  const bool owed = receiver_.ack_owed();
  if (owed && !ack_hold_until_) ack_hold_until_ = now + ack_hold();
  if (owed && now >= *ack_hold_until_) return send_ack_alone(room, now);
  const auto n = sender_.poll(room, header(PacketType::kData), now);
  if (!n) return std::nullopt;  // an owed ACK keeps waiting until ack_hold_until_ (next_deadline)
  last_data_room_ = room.size() - *n;
  if (!owed) return n;
  ack_hold_until_.reset();
  held_ack_size_ = receiver_.poll_ack(held_ack_, header(PacketType::kAck), now).value_or(0);
  if (held_ack_size_ == 0) return n;
  if (const std::size_t m = append_ack(room, *n, std::span(held_ack_.data(), held_ack_size_))) {
    held_ack_size_ = 0;
    ++ctr_.acks_piggybacked;
    return m;
  }
  return n;  // the ACK did not fit: it goes out alone in the next call
}

std::optional<std::size_t> TcpncCore::poll_deliver(std::span<std::uint8_t> out) {
  return receiver_.poll_deliver(out);
}

std::optional<TimePoint> TcpncCore::next_deadline() const {
  transport::Earliest t;
  t.offer(sender_.next_deadline());
  t.offer(receiver_.next_deadline());
  if (ack_hold_until_ && receiver_.ack_owed()) t.offer(*ack_hold_until_);
  if (established()) {
    t.offer(last_heard_ + std::chrono::milliseconds(s_.dead_peer_ms));
    if (!keepalive_due_) t.offer(last_sent_ + std::chrono::milliseconds(s_.keepalive_ms));
  } else if (!hello_due_) {
    t.offer(next_hello_);
  }
  return t.get();
}

std::vector<transport::StatEntry> TcpncCore::stats() const {
  std::vector<transport::StatEntry> out;
  out.push_back({"established", established() ? 1.0 : 0.0});
  // Session ids are not shown: with a secure layer absent they are what a forger needs.
  sender_.stats(out, now_);
  receiver_.stats(out);
  auto add = [&out](const char* name, std::uint64_t v) { out.push_back({name, static_cast<double>(v)}); };
  add("hellos_sent", ctr_.hellos_sent);
  add("keepalives_sent", ctr_.keepalives_sent);
  add("session_resets", ctr_.session_resets);
  add("stuck_cw_resets", ctr_.stuck_cw_resets);
  add("hellos_ignored", ctr_.hellos_ignored);
  add("acks_piggybacked", ctr_.acks_piggybacked);
  add("peer_restarts", ctr_.peer_restarts);
  add("unknown_session_datagrams", ctr_.unknown_session);
  add("malformed_datagrams", ctr_.malformed);
  return out;
}

}  // namespace ncgw::tcpnc
