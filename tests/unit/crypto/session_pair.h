// Two secure sessions joined in memory, for the session tests: deterministic random bytes, a
// clock the test moves, and a pump that carries control messages and records both ways.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "crypto/keys.h"
#include "crypto/session.h"
#include "transports/common/rng.h"

namespace ncgw::crypto::test {

// Deterministic "CSPRNG" for tests (xoshiro seeded per side).
inline RandomSource seeded_random(std::uint64_t seed) {
  auto rng = std::make_shared<transport::Rng>(seed);
  return [rng](MutBytes out) {
    for (auto& b : out) b = static_cast<std::uint8_t>(rng->next());
  };
}

// A private key from a seed.
inline Key test_private(std::uint64_t seed) {
  Key r;
  seeded_random(seed)(r);
  return private_from_random(r);
}

// Settings for side `self` talking to `other` (keys from seeds 1 and 2).
inline SessionSettings pair_settings(std::uint64_t self, std::uint64_t other) {
  SessionSettings s;
  s.local_private = test_private(self);
  s.remote_public = x25519_public(test_private(other));
  s.peer_address = {10, 0, 0, static_cast<std::uint8_t>(other)};
  s.random = seeded_random(100 + self);
  return s;
}

// Two sessions and the wire between them.
struct SessionPair {
  Session a, b;
  transport::TimePoint now{};
  std::vector<std::vector<std::uint8_t>> delivered_a, delivered_b;   // record payloads opened
  // Return true to drop a datagram from a to b (drop) or from b to a (drop_ba).
  std::function<bool(const std::vector<std::uint8_t>&)> drop = [](const auto&) { return false; };
  std::function<bool(const std::vector<std::uint8_t>&)> drop_ba = [](const auto&) { return false; };

  SessionPair(SessionSettings sa, SessionSettings sb) : a(std::move(sa)), b(std::move(sb)) {}

  // Moves every control message across until both sides are quiet.
  void pump() {
    for (int round = 0; round < 20; ++round) {
      bool moved = carry(a, b, delivered_b, drop);
      moved = carry(b, a, delivered_a, drop_ba) || moved;
      if (!moved) return;
    }
  }
  // Seals `payload` at `from` and delivers it to `to`; false if `from` has no key.
  bool send(Session& from, Session& to, const std::vector<std::uint8_t>& payload) {
    if (!from.can_send(now)) return false;
    std::vector<std::uint8_t> rec(payload.size() + wire::kRecordOverhead);
    std::copy(payload.begin(), payload.end(), rec.begin() + wire::kDataHeaderSize);
    rec.resize(from.seal(rec, payload.size(), now));
    last_record = rec;
    deliver(to, rec, &from == &a ? delivered_b : delivered_a);
    return true;
  }
  void deliver(Session& to, const std::vector<std::uint8_t>& d, std::vector<std::vector<std::uint8_t>>& sink) {
    std::vector<std::uint8_t> plain(d.size() + 16);
    if (auto p = to.receive(d, now, plain); p && !p->empty()) sink.emplace_back(p->begin(), p->end());
  }
  void advance(transport::Duration d) {
    now += d;
    a.on_timeout(now);
    b.on_timeout(now);
    pump();
  }
  std::vector<std::uint8_t> last_record;

 private:
  bool carry(Session& from, Session& to, std::vector<std::vector<std::uint8_t>>& sink,
             const std::function<bool(const std::vector<std::uint8_t>&)>& lost) {
    bool moved = false;
    std::vector<std::uint8_t> buf(2048);
    while (auto n = from.poll_control(buf, now)) {
      moved = true;
      std::vector<std::uint8_t> d(buf.begin(), buf.begin() + static_cast<long>(*n));
      if (!lost(d)) deliver(to, d, sink);
    }
    return moved;
  }
};

}  // namespace ncgw::crypto::test
