// Session: handshake messages (initiation, response, cookie reply) and handshake admission
// under load. Layouts in wire.h.
#include <cstring>
#include <string_view>

#include "crypto/keys.h"
#include "crypto/session.h"
#include "transports/common/byte_order.h"

namespace ncgw::crypto {

using transport::TimePoint;

namespace {

constexpr std::size_t kNoise1At = 8, kNoise1Size = kNoiseMessage1Overhead + wire::kTimestampSize;
constexpr std::size_t kNoise2At = 12, kNoise2Size = kNoiseMessage2Overhead;
constexpr transport::Duration kLoadWindow = std::chrono::seconds(1);

Bytes prologue() {
  const std::string_view p = wire::kPrologue;
  return {reinterpret_cast<const std::uint8_t*>(p.data()), p.size()};
}

}  // namespace

Key Session::random_key() {
  Key k;
  settings_.random(k);
  return k;
}

std::uint32_t Session::fresh_index() {
  for (;;) {
    std::uint32_t v = 0;
    settings_.random({reinterpret_cast<std::uint8_t*>(&v), sizeof v});
    bool taken = v == 0 || (pending_ && pending_->local_index == v);
    for (const auto* kp : {&current_, &previous_, &next_}) taken = taken || (*kp && (*kp)->local_index == v);
    if (!taken) return v;
  }
}

std::array<std::uint8_t, wire::kTimestampSize> Session::timestamp(TimePoint now) const {
  const std::int64_t wall = settings_.wall_offset_ns + transport::ns_since_epoch(now);
  std::array<std::uint8_t, wire::kTimestampSize> ts{};
  transport::put_be64(ts.data(), 0x400000000000000aULL + static_cast<std::uint64_t>(wall / 1'000'000'000));
  transport::put_be32(ts.data() + 8, static_cast<std::uint32_t>(wall % 1'000'000'000));
  return ts;
}

void Session::send_initiation(TimePoint now) {
  Pending p{IkHandshake(noise_keys_, true, prologue()), fresh_index(), now, false};
  Message m{};
  m[0] = wire::kTypeInitiation;
  transport::put_be32(m.data() + 4, p.local_index);
  Key e = random_key();
  const bool ok = p.hs.write_message1(private_from_random(e), timestamp(now), m.data() + kNoise1At);
  wipe(e);
  pending_.emplace(std::move(p));   // also on failure: the retry timer paces the next attempt
  if (!ok) return;
  pending_->with_cookie = cookies_.stamp({m.data(), wire::kInitiationSize}, now);
  queue(m.data(), wire::kInitiationSize);
  ++counters_.handshakes_initiated;
}

bool Session::admit_initiation(Bytes m, TimePoint now) {
  if (now - load_window_start_ >= kLoadWindow) {
    load_window_start_ = now;
    load_count_ = 0;
  }
  if (++load_count_ > settings_.load_threshold) under_load_until_ = now + kLoadWindow;
  if (!under_load_until_ || now >= *under_load_until_) return true;
  if (!cookies_.mac2_valid(m, now)) {
    ++counters_.drop_cookie_needed;
    if (!cookie_bucket_.take(now)) return false;
    Message reply{};
    std::array<std::uint8_t, wire::kXNonceSize> nonce;
    settings_.random(nonce);
    cookies_.write_reply(m, transport::get_be32(m.data() + 4), now, nonce.data(), random_key(), reply.data());
    queue(reply.data(), wire::kCookieSize);
    ++counters_.cookie_replies_sent;
    return false;
  }
  if (handshake_bucket_.take(now)) return true;
  ++counters_.drop_rate_limited;
  return false;
}

void Session::on_initiation(Bytes m, TimePoint now) {
  if (m.size() != wire::kInitiationSize) return void(++counters_.drop_malformed);
  if (!cookies_.mac1_valid(m)) return void(++counters_.drop_bad_mac1);
  if (!admit_initiation(m, now)) return;
  IkHandshake hs(noise_keys_, false, prologue());
  std::array<std::uint8_t, wire::kTimestampSize> ts;
  if (!hs.read_message1(m.subspan(kNoise1At, kNoise1Size), ts.data())) return void(++counters_.drop_handshake_invalid);
  if (!equal(hs.remote_static(), settings_.remote_public)) return void(++counters_.drop_wrong_peer);
  if (std::memcmp(ts.data(), last_timestamp_.data(), ts.size()) <= 0) return void(++counters_.drop_stale_timestamp);
  last_timestamp_ = ts;
  // Both sides initiated at once: one session is enough, and two would have the sides seal with
  // different key pairs. The side with the larger static public key keeps its own initiation.
  if (pending_) {
    if (std::memcmp(local_public_.data(), settings_.remote_public.data(), local_public_.size()) > 0) {
      return void(++counters_.handshakes_crossed);
    }
    pending_.reset();
  }
  Message r{};
  r[0] = wire::kTypeResponse;
  const std::uint32_t local = fresh_index(), remote = transport::get_be32(m.data() + 4);
  transport::put_be32(r.data() + 4, local);
  transport::put_be32(r.data() + 8, remote);
  Key e = random_key();
  const bool ok = hs.write_message2(private_from_random(e), {}, r.data() + kNoise2At);
  wipe(e);
  if (!ok) return void(++counters_.drop_handshake_invalid);
  cookies_.stamp({r.data(), wire::kResponseSize}, now);
  queue(r.data(), wire::kResponseSize);
  install(hs.split(), local, remote, false, now);
  ++counters_.handshakes_answered;
}

void Session::on_response(Bytes m, TimePoint now) {
  if (m.size() != wire::kResponseSize) return void(++counters_.drop_malformed);
  if (!cookies_.mac1_valid(m)) return void(++counters_.drop_bad_mac1);
  if (!pending_ || transport::get_be32(m.data() + 8) != pending_->local_index) {
    return void(++counters_.drop_unknown_key);
  }
  IkHandshake hs = pending_->hs;   // a forged answer must not spoil the one we wait for
  std::uint8_t empty[1];
  if (!hs.read_message2(m.subspan(kNoise2At, kNoise2Size), empty)) return void(++counters_.drop_handshake_invalid);
  install(hs.split(), pending_->local_index, transport::get_be32(m.data() + 4), true, now);
  pending_.reset();
  ++counters_.handshakes_completed;
}

void Session::on_cookie(Bytes m, TimePoint now) {
  if (m.size() != wire::kCookieSize) return void(++counters_.drop_malformed);
  // Any reply will do (see cookie.h): the one to our own initiation may be among those dropped.
  if (!cookies_.take_reply(m, now)) return void(++counters_.drop_bad_cookie);
  ++counters_.cookies_received;
  // Resend now, with mac2, unless the initiation waiting for an answer already carried one.
  if (pending_ && !pending_->with_cookie) pending_->sent = now - settings_.handshake_retry;
}

}  // namespace ncgw::crypto
