// Shared setup of the secure-layer fuzz targets: fixed keys, a deterministic byte source, and a
// pair of sessions with a finished handshake.
#pragma once
#include <array>
#include <cstdint>
#include <memory>

#include "crypto/keys.h"
#include "crypto/session.h"
#include "transports/common/rng.h"

namespace ncgw::crypto::fuzz {

// Deterministic random bytes (fuzzing must be reproducible).
inline RandomSource counter_random(std::uint64_t seed) {
  auto rng = std::make_shared<transport::Rng>(seed);
  return [rng](MutBytes out) {
    for (auto& b : out) b = static_cast<std::uint8_t>(rng->next());
  };
}

// Private key number `n` (fixed).
inline Key fixed_private(std::uint8_t n) {
  Key k;
  k.fill(n);
  return private_from_random(k);
}

// Settings of side `self` (1 or 2) talking to `other`.
inline SessionSettings fixed_settings(std::uint8_t self, std::uint8_t other) {
  SessionSettings s;
  s.local_private = fixed_private(self);
  s.remote_public = x25519_public(fixed_private(other));
  s.peer_address = {192, 0, 2, other};
  s.random = counter_random(self);
  s.load_threshold = 1u << 30;   // the flood path has its own unit test; here: reach Noise
  return s;
}

// Moves control messages between a and b at time `now` until quiet.
inline void pump(Session& a, Session& b, transport::TimePoint now) {
  std::array<std::uint8_t, 2048> buf{}, plain{};
  for (int round = 0; round < 8; ++round) {
    bool moved = false;
    while (auto n = a.poll_control(buf, now)) moved = true, (void)b.receive({buf.data(), *n}, now, plain);
    while (auto n = b.poll_control(buf, now)) moved = true, (void)a.receive({buf.data(), *n}, now, plain);
    if (!moved) return;
  }
}

}  // namespace ncgw::crypto::fuzz
