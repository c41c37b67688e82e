#include "transports/udt/endpoint.h"

#include <algorithm>

namespace ncgw::udt {

Endpoint::Endpoint(std::uint64_t seed) : rng_(seed) {
  secret_ = rng_.next();
  next_id_ = static_cast<std::int32_t>(1 + rng_.below(std::uint64_t{1} << 30));  // library: 1..2^30
}

std::int32_t Endpoint::new_id() {
  for (;;) {
    const std::int32_t id = next_id_;
    next_id_ = next_id_ <= 1 ? (1 << 30) : next_id_ - 1;  // the library counts down
    if (!conns_.count(id)) return id;
  }
}

Connection* Endpoint::add(const ConnectionSettings& s, TimePoint now) {
  const std::int32_t id = new_id();
  auto c = std::make_unique<Connection>(s, id, rng_.next(), now);
  Connection* raw = c.get();
  conns_.emplace(id, std::move(c));
  order_.push_back(raw);
  return raw;
}

void Endpoint::listen(const ConnectionSettings& s, std::size_t backlog) {
  listening_ = true;
  listen_settings_ = s;
  backlog_ = backlog;
}

std::int32_t Endpoint::connect(const PeerAddress& peer, const ConnectionSettings& s, TimePoint now) {
  Connection* c = add(s, now);
  c->start_caller(peer, now);
  return c->self_id();
}

std::int32_t Endpoint::rendezvous(const PeerAddress& peer, const ConnectionSettings& s, TimePoint now) {
  Connection* c = add(s, now);
  c->start_rendezvous(peer, now);
  return c->self_id();
}

std::optional<std::int32_t> Endpoint::accept() {
  while (!accepted_.empty()) {
    const std::int32_t id = accepted_.front();
    accepted_.pop_front();
    if (conns_.count(id)) return id;
  }
  return std::nullopt;
}

Connection* Endpoint::find(std::int32_t id) {
  const auto it = conns_.find(id);
  return it == conns_.end() ? nullptr : it->second.get();
}

const Connection* Endpoint::find(std::int32_t id) const {
  const auto it = conns_.find(id);
  return it == conns_.end() ? nullptr : it->second.get();
}

void Endpoint::remove(std::int32_t id) {
  const auto it = conns_.find(id);
  if (it == conns_.end()) return;
  order_.erase(std::remove(order_.begin(), order_.end(), it->second.get()), order_.end());
  conns_.erase(it);
}

Connection* Endpoint::find_by_peer(const PeerAddress& from, std::int32_t peer_id) {
  for (Connection* c : order_) {
    if (c->role() == Connection::Role::listener && c->peer_id() == peer_id && c->peer() == from) return c;
  }
  return nullptr;
}

std::int32_t Endpoint::cookie(const PeerAddress& from, std::int64_t bucket) const {
  std::uint64_t h = secret_ ^ static_cast<std::uint64_t>(bucket);
  for (auto b : from.bytes) h = transport::splitmix64(h) ^ b;
  h = transport::splitmix64(h) ^ from.port;
  return static_cast<std::int32_t>(transport::splitmix64(h) & 0xFFFFFFFFu);
}

void Endpoint::queue_reply(const PeerAddress& to, const Handshake& h, std::uint32_t dest) {
  if (reply_count_ == replies_.size()) { ++ignored_; return; }
  Reply& r = replies_[(reply_head_ + reply_count_) % replies_.size()];
  r.to = to;
  r.len = write_handshake(r.bytes, dest, h);
  ++reply_count_;
}

void Endpoint::on_listener_handshake(const Packet& p, const PeerAddress& from, TimePoint now) {
  if (p.payload.size() != wire::kHandshakeSize) { ++ignored_; return; }  // library: exactly 48 bytes
  auto hs = parse_handshake(p.payload);
  const std::int64_t bucket = transport::us_since_epoch(now) / wire::kCookieBucketUs;
  const auto dest = static_cast<std::uint32_t>(hs->socket_id);
  if (hs->req_type == wire::kReqCaller) {
    hs->cookie = cookie(from, bucket);
    queue_reply(from, *hs, dest);
    return;
  }
  if (hs->cookie != cookie(from, bucket) && hs->cookie != cookie(from, bucket - 1)) { ++ignored_; return; }
  if (hs->version != wire::kUdtVersion || hs->sock_type != static_cast<std::int32_t>(listen_settings_.type)) {
    hs->req_type = wire::kReqRejected;
    queue_reply(from, *hs, dest);
    return;
  }
  if (Connection* existing = find_by_peer(from, hs->socket_id)) {  // our response was lost
    queue_reply(from, existing->repeated_answer(), dest);
    return;
  }
  if (accepted_.size() >= backlog_) {
    hs->req_type = wire::kReqRejected;
    queue_reply(from, *hs, dest);
    return;
  }
  Connection* c = add(listen_settings_, now);
  c->accept(from, *hs, now);
  accepted_.push_back(c->self_id());
}

void Endpoint::on_datagram(std::span<const std::uint8_t> bytes, const PeerAddress& from, TimePoint now) {
  const auto p = parse_packet(bytes);
  if (!p) { ++ignored_; return; }
  if (p->dest_id == 0) {
    if (!p->control || p->type != wire::ControlType::handshake) { ++ignored_; return; }
    if (listening_) {
      on_listener_handshake(*p, from, now);
      return;
    }
    for (Connection* c : order_) {  // a rendezvous connector for this address
      if (c->role() == Connection::Role::rendezvous && c->state() == ConnState::connecting && c->peer() == from) {
        c->on_packet(*p, now);
        return;
      }
    }
    ++ignored_;
    return;
  }
  Connection* c = find(static_cast<std::int32_t>(p->dest_id));
  if (!c || !(c->peer() == from)) { ++ignored_; return; }
  c->on_packet(*p, now);
}

void Endpoint::on_timeout(TimePoint now) {
  for (Connection* c : order_) {
    const auto d = c->next_deadline();
    if (d && *d <= now) c->on_timeout(now);
  }
}

std::optional<Transmit> Endpoint::poll_transmit(std::span<std::uint8_t> out, TimePoint now) {
  if (reply_count_ > 0) {
    const Reply& r = replies_[reply_head_];
    reply_head_ = (reply_head_ + 1) % replies_.size();
    --reply_count_;
    if (out.size() < r.len) return std::nullopt;
    std::copy_n(r.bytes.data(), r.len, out.data());
    return Transmit{r.len, r.to};
  }
  for (std::size_t k = 0; k < order_.size(); ++k) {
    Connection* c = order_[(rr_ + k) % order_.size()];
    if (const auto n = c->poll_transmit(out, now)) {
      rr_ = (rr_ + k + 1) % order_.size();
      return Transmit{*n, c->peer()};
    }
  }
  return std::nullopt;
}

std::optional<TimePoint> Endpoint::next_deadline() const {
  std::optional<TimePoint> best;
  if (reply_count_ > 0) return transport::time_from_ns(0);
  for (const Connection* c : order_) {
    const auto d = c->next_deadline();
    if (d && (!best || *d < *best)) best = d;
  }
  return best;
}

}  // namespace ncgw::udt
