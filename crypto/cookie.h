// WireGuard-style handshake DoS protection (WireGuard paper sections 5.4.4 and 5.4.7).
//  mac1 = MAC(HASH("mac1----" || responder static public), message up to mac1): any handshake
//         message without it is dropped before any Diffie-Hellman.
//  mac2 = MAC(cookie, message up to mac2): required only while the responder is under load.
//  cookie = MAC(secret rotated every 2 minutes, the peer's address), sent back in a cookie reply.
// One departure from WireGuard: a session here has exactly one peer at one address, so the reply
// is sealed (XChaCha20-Poly1305) under HASH("cookie--" || DH(our static, peer static)), computed
// once, with no per-message associated data. Whoever's spoofed initiation triggered a reply, it
// reaches the real peer, which alone can open it: a flood from the peer's own address then hands
// the peer its cookie instead of starving it, and nobody else can read or forge a reply.
// Pure: time and random bytes are passed in.
#pragma once
#include <optional>
#include <vector>

#include "crypto/primitives.h"
#include "transports/common/time.h"

namespace ncgw::crypto {

// How long a cookie secret, and a cookie received, stay valid.
inline constexpr transport::Duration kCookieLifetime = std::chrono::seconds(120);

// One peer's cookie state in both roles.
class Cookies {
 public:
  // `local_public` keys the checks of messages to us, `remote_public` the stamps of ours;
  // `static_dh` is DH(our static, peer static); `source` identifies the peer's address.
  Cookies(const Key& local_public, const Key& remote_public, const Key& static_dh, std::vector<std::uint8_t> source);

  // Writes mac1 and mac2 into the last 32 bytes of `message` (a handshake message we send);
  // true if mac2 is made with a fresh cookie (else it is zero).
  bool stamp(MutBytes message, transport::TimePoint now);
  // True if `message` carries a valid mac1 for us.
  bool mac1_valid(Bytes message) const;
  // True if `message` carries a valid mac2 made with a cookie we issued within the lifetime.
  bool mac2_valid(Bytes message, transport::TimePoint now) const;
  // Writes a kCookieSize reply to `message` (whose sender index is `receiver`) into `out`, with
  // a fresh `nonce`; `fresh_secret` replaces the cookie secret when it is older than the lifetime.
  void write_reply(Bytes message, std::uint32_t receiver, transport::TimePoint now,
                   const std::uint8_t* nonce, const Key& fresh_secret, std::uint8_t* out);
  // Takes a cookie reply from the peer; false if it does not authenticate.
  bool take_reply(Bytes reply, transport::TimePoint now);

 private:
  Mac cookie_for_source(transport::TimePoint now, const Key& fresh_secret);
  Key check_mac1_key_;                      // from our public key
  Key stamp_mac1_key_;                      // from the peer's public key
  Key reply_key_;                           // seals cookie replies both ways
  std::vector<std::uint8_t> source_;
  Key secret_{};                            // our cookie secret
  Mac cookie_{};                            // MAC(secret_, source_)
  std::optional<transport::TimePoint> secret_born_;
  Mac received_cookie_{};                   // the peer's cookie for us
  std::optional<transport::TimePoint> received_at_;
};

}  // namespace ncgw::crypto
