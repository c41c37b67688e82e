#include "gateway/security_log.h"

#include <spdlog/spdlog.h>

namespace ncgw::gateway {

void log_security_events(const std::string& peer, const crypto::SessionCounters& now, crypto::SessionCounters& last,
                         bool has_session) {
  const auto mac1 = now.drop_bad_mac1 - last.drop_bad_mac1;
  const auto invalid = now.drop_handshake_invalid - last.drop_handshake_invalid;
  const auto wrong = now.drop_wrong_peer - last.drop_wrong_peer;
  const auto cookies = now.drop_cookie_needed - last.drop_cookie_needed;
  if (mac1 + invalid + wrong != 0 && !has_session) {
    spdlog::warn("peer {}: no session: handshakes refused: {} not made for our public key (does the peer "
                 "have our `ncgw pubkey`?), {} failed inside Noise (pre-shared key or our public_key for "
                 "it wrong?), {} from a static key that is not this peer's public_key",
                 peer, mac1, invalid, wrong);
  }
  if (cookies != 0) {
    spdlog::info("peer {}: under handshake load: {} initiations answered with a cookie, {} rate-limited",
                 peer, cookies, now.drop_rate_limited - last.drop_rate_limited);
  }
  last = now;
}

}  // namespace ncgw::gateway
