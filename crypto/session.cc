// Session: records (seal, open, replay window) and the key pair rotation timers.
#include "crypto/session.h"

#include <cstring>

#include "transports/common/byte_order.h"

namespace ncgw::crypto {

using transport::TimePoint;

namespace {
// DH(our static, peer static), zero if the peer key is unusable (then no handshake succeeds).
Key static_dh(const SessionSettings& s) {
  Key shared{};
  if (!x25519(s.local_private, s.remote_public, shared)) shared = Key{};
  return shared;
}
}  // namespace

Session::Session(SessionSettings settings)
    : settings_((init_sodium(), std::move(settings))),
      local_public_(x25519_public(settings_.local_private)),
      noise_keys_{settings_.local_private, settings_.remote_public, settings_.psk},
      cookies_(local_public_, settings_.remote_public, static_dh(settings_),
               settings_.peer_address),
      handshake_bucket_(settings_.handshakes_per_second, settings_.handshakes_per_second),
      cookie_bucket_(settings_.cookie_replies_per_second, settings_.cookie_replies_per_second) {
  init_sodium();
}

bool Session::alive(const Keypair& kp, TimePoint now) const { return now - kp.born < settings_.reject_after; }

bool Session::can_send(TimePoint now) const {
  return current_ && alive(*current_, now) && current_->send_counter < kRejectAfterMessages;
}

std::optional<transport::Duration> Session::key_age(TimePoint now) const {
  if (!current_) return std::nullopt;
  return now - current_->born;
}

Keypair* Session::find_keypair(std::uint32_t local_index, TimePoint now) {
  for (auto* kp : {&current_, &previous_, &next_}) {
    if (*kp && (*kp)->local_index == local_index) return alive(**kp, now) ? &**kp : nullptr;
  }
  return nullptr;
}

std::optional<Bytes> Session::receive(Bytes d, TimePoint now, MutBytes plain) {
  if (!d.empty() && d[0] == wire::kTypeData) return open_record(d, now, plain);
  if (d.size() < 4 || d[1] != 0 || d[2] != 0 || d[3] != 0) {
    ++counters_.drop_malformed;
    return std::nullopt;
  }
  switch (d[0]) {
    case wire::kTypeInitiation: on_initiation(d, now); return std::nullopt;
    case wire::kTypeResponse: on_response(d, now); return std::nullopt;
    case wire::kTypeCookie: on_cookie(d, now); return std::nullopt;
    default: ++counters_.drop_malformed; return std::nullopt;
  }
}

std::optional<Bytes> Session::open_record(Bytes d, TimePoint now, MutBytes plain) {
  if (d.size() < wire::kRecordOverhead || plain.size() < d.size()) {
    ++counters_.drop_malformed;
    return std::nullopt;
  }
  Keypair* kp = find_keypair(transport::get_be32(d.data() + wire::kOffDataReceiver), now);
  if (!kp) {
    ++counters_.drop_unknown_key;
    return std::nullopt;
  }
  const std::uint64_t counter = transport::get_be48(d.data() + wire::kOffDataCounter);
  if (counter >= kRejectAfterMessages || !kp->window.check(counter)) {
    ++counters_.drop_replay;
    return std::nullopt;
  }
  const Bytes header = d.first(wire::kDataHeaderSize);
  if (!aead_open(kp->receive, counter, header, d.subspan(wire::kDataHeaderSize), plain.data())) {
    ++counters_.drop_bad_tag;
    return std::nullopt;
  }
  kp->window.update(counter);
  ++counters_.rx_records;
  if (next_ && kp == &*next_) {   // the initiator confirmed the session: it seals from now on
    previous_ = std::move(current_);
    current_ = std::move(next_);
    next_.reset();
  }
  return plain.first(d.size() - wire::kRecordOverhead);
}

std::size_t Session::seal(MutBytes out, std::size_t payload_size, TimePoint now) {
  (void)now;
  Keypair& kp = *current_;
  out[0] = wire::kTypeData;
  transport::put_be32(out.data() + wire::kOffDataReceiver, kp.remote_index);
  transport::put_be48(out.data() + wire::kOffDataCounter, kp.send_counter);
  const Bytes header = out.first(wire::kDataHeaderSize);
  std::uint8_t* body = out.data() + wire::kDataHeaderSize;
  aead_seal(kp.send, kp.send_counter++, header, {body, payload_size}, body);
  ++counters_.tx_records;
  return payload_size + wire::kRecordOverhead;
}

std::optional<std::size_t> Session::poll_control(MutBytes out, TimePoint now) {
  on_timeout(now);
  if (out_count_ != 0) {
    const std::size_t n = out_size_[out_head_];
    if (out.size() < n) return std::nullopt;
    std::memcpy(out.data(), out_[out_head_].data(), n);
    out_head_ = (out_head_ + 1) % out_.size();
    --out_count_;
    return n;
  }
  if (confirm_due_ && can_send(now) && out.size() >= wire::kRecordOverhead) {
    confirm_due_ = false;
    ++counters_.keepalives_sent;
    return seal(out, 0, now);
  }
  return std::nullopt;
}

void Session::queue(const std::uint8_t* bytes, std::size_t size) {
  if (out_count_ == out_.size()) return;   // full: the oldest messages are still waiting
  const std::size_t slot = (out_head_ + out_count_) % out_.size();
  std::memcpy(out_[slot].data(), bytes, size);
  out_size_[slot] = size;
  ++out_count_;
}

bool Session::rekey_due(TimePoint now) const {
  if (!can_send(now)) return true;
  const Keypair& kp = *current_;
  if (kp.send_counter >= settings_.rekey_after_messages) return true;
  // The initiator of the session rekeys; the responder steps in if the initiator has not.
  const auto limit = kp.initiator ? settings_.rekey_after : settings_.rekey_after + 3 * settings_.handshake_retry;
  return now - kp.born >= limit;
}

void Session::on_timeout(TimePoint now) {
  if (pending_) {
    if (now - pending_->sent >= settings_.handshake_retry) send_initiation(now);
    return;
  }
  if (rekey_due(now)) send_initiation(now);
}

std::optional<TimePoint> Session::next_deadline() const {
  if (pending_) return pending_->sent + settings_.handshake_retry;
  if (!current_) return TimePoint{};
  const Keypair& kp = *current_;
  const auto limit = kp.initiator ? settings_.rekey_after : settings_.rekey_after + 3 * settings_.handshake_retry;
  return std::min(kp.born + limit, kp.born + settings_.reject_after);
}

void Session::install(const TransportKeys& keys, std::uint32_t local, std::uint32_t remote, bool initiator,
                      TimePoint now) {
  Keypair kp;
  kp.send = keys.send;
  kp.receive = keys.receive;
  kp.local_index = local;
  kp.remote_index = remote;
  kp.born = now;
  kp.initiator = initiator;
  kp.epoch = ++epochs_;
  if (initiator) {
    previous_ = std::move(current_);
    current_ = kp;
    confirm_due_ = true;
  } else {
    next_ = kp;
  }
}

}  // namespace ncgw::crypto
