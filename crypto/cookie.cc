#include "crypto/cookie.h"

#include <cstring>
#include <string_view>

#include "crypto/wire.h"

namespace ncgw::crypto {

namespace {

Bytes label(const char* text) {
  return {reinterpret_cast<const std::uint8_t*>(text), std::string_view(text).size()};
}

// Offsets of mac1 and mac2 in a handshake message (they end it).
std::size_t mac1_at(Bytes m) { return m.size() - 2 * wire::kMacSize; }
std::size_t mac2_at(Bytes m) { return m.size() - wire::kMacSize; }

}  // namespace

Cookies::Cookies(const Key& local_public, const Key& remote_public, const Key& static_dh,
                 std::vector<std::uint8_t> source)
    : check_mac1_key_(hash(label(wire::kLabelMac1), local_public)),
      stamp_mac1_key_(hash(label(wire::kLabelMac1), remote_public)),
      reply_key_(hash(label(wire::kLabelCookie), static_dh)),
      source_(std::move(source)) {}

bool Cookies::stamp(MutBytes m, transport::TimePoint now) {
  const Mac mac1 = mac(stamp_mac1_key_, m.first(mac1_at(m)));
  std::memcpy(m.data() + mac1_at(m), mac1.data(), wire::kMacSize);
  Mac mac2{};
  const bool fresh = received_at_ && now - *received_at_ < kCookieLifetime;
  if (fresh) mac2 = mac(received_cookie_, m.first(mac2_at(m)));
  std::memcpy(m.data() + mac2_at(m), mac2.data(), wire::kMacSize);
  return fresh;
}

bool Cookies::mac1_valid(Bytes m) const {
  if (m.size() < 2 * wire::kMacSize) return false;
  const Mac want = mac(check_mac1_key_, m.first(mac1_at(m)));
  return equal(want, m.subspan(mac1_at(m), wire::kMacSize));
}

bool Cookies::mac2_valid(Bytes m, transport::TimePoint now) const {
  if (m.size() < 2 * wire::kMacSize || !secret_born_ || now - *secret_born_ >= kCookieLifetime) return false;
  static constexpr Mac kNone{};
  if (equal(kNone, m.subspan(mac2_at(m), wire::kMacSize))) return false;   // sent without a cookie
  const Mac want = mac(cookie_, m.first(mac2_at(m)));
  return equal(want, m.subspan(mac2_at(m), wire::kMacSize));
}

Mac Cookies::cookie_for_source(transport::TimePoint now, const Key& fresh_secret) {
  if (!secret_born_ || now - *secret_born_ >= kCookieLifetime) {
    secret_ = fresh_secret;
    secret_born_ = now;
    cookie_ = mac(secret_, source_);   // one peer address: one cookie per secret
  }
  return cookie_;
}

void Cookies::write_reply(Bytes m, std::uint32_t receiver, transport::TimePoint now, const std::uint8_t* nonce,
                          const Key& fresh_secret, std::uint8_t* out) {
  const Mac cookie = cookie_for_source(now, fresh_secret);
  std::memset(out, 0, 4);
  out[0] = wire::kTypeCookie;
  for (int i = 0; i < 4; ++i) out[4 + i] = static_cast<std::uint8_t>(receiver >> (8 * i));
  std::memcpy(out + 8, nonce, wire::kXNonceSize);
  (void)m;
  xaead_seal(reply_key_, out + 8, {}, cookie, out + 32);
}

bool Cookies::take_reply(Bytes reply, transport::TimePoint now) {
  if (reply.size() != wire::kCookieSize) return false;
  Mac cookie;
  if (!xaead_open(reply_key_, reply.data() + 8, {}, reply.subspan(32), cookie.data())) return false;
  received_cookie_ = cookie;
  received_at_ = now;
  return true;
}

}  // namespace ncgw::crypto
