// Two plain cores, each wrapped in a SecureCore, joined back to back in memory (instant delivery),
// with a tap that can drop, record or forge datagrams on the way.
#pragma once
#include <array>
#include <functional>
#include <memory>
#include <vector>

#include "crypto/secure_core.h"
#include "session_pair.h"
#include "transports/plain/plain_core.h"

namespace ncgw::crypto::test {

// A SecureCore over a plain core with session id 7, keys from seed `self` and `other`, for
// underlay datagrams of `max_datagram` bytes.
inline std::unique_ptr<SecureCore> secure_plain(std::uint64_t self, std::uint64_t other, std::size_t max_datagram = 1472) {
  plain::PlainCoreSettings ps;
  ps.session_id = 7;
  ps.max_datagram = max_datagram - wire::kRecordOverhead;
  return std::make_unique<SecureCore>(std::make_unique<plain::PlainCore>(ps), pair_settings(self, other),
                                      ps.max_datagram);
}

// The two cores, a shared clock and the wire.
struct CorePair {
  std::unique_ptr<SecureCore> a = secure_plain(1, 2), b = secure_plain(2, 1);
  transport::TimePoint now{};
  std::vector<std::uint8_t> buf = std::vector<std::uint8_t>(2048);
  std::uint64_t delivered_a = 0, delivered_b = 0;
  // Sees every datagram from a to b; returns false to drop it.
  std::function<bool(std::span<const std::uint8_t>)> tap_ab = [](auto) { return true; };

  // Datagrams move through the batch calls (poll_transmits, on_datagrams) instead of one by one.
  bool batched = false;

  // Moves datagrams both ways and drains deliveries until quiet; runs due timers first.
  void step() {
    for (SecureCore* c : {a.get(), b.get()}) {
      if (auto d = c->next_deadline(); d && *d <= now) c->on_timeout(now);
    }
    for (int round = 0; round < 8; ++round) {
      if (batched) {
        move_batches(*a, *b, tap_ab);
        move_batches(*b, *a, [](auto) { return true; });
      } else {
        while (auto n = a->poll_transmit(buf, now)) {
          if (tap_ab({buf.data(), *n})) b->on_datagram({buf.data(), *n}, now);
        }
        while (auto n = b->poll_transmit(buf, now)) a->on_datagram({buf.data(), *n}, now);
      }
      while (b->poll_deliver(buf)) ++delivered_b;
      while (a->poll_deliver(buf)) ++delivered_a;
    }
  }

  // Everything `from` sends, in batches of up to kBatch, into `to` as batches of what `tap` passes.
  template <class Tap>
  void move_batches(SecureCore& from, SecureCore& to, const Tap& tap) {
    for (;;) {
      for (std::size_t i = 0; i < kBatch; ++i) slots[i] = std::span(slot_bytes).subspan(i * kSlot, kSlot);
      const std::size_t n = from.poll_transmits(slots, lengths, now);
      std::size_t passed = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const std::span<const std::uint8_t> d = slots[i].first(lengths[i]);
        if (tap(d)) arrivals[passed++] = {d, now};
      }
      to.on_datagrams(std::span(arrivals).first(passed));
      if (n < kBatch) return;
    }
  }

  static constexpr std::size_t kBatch = 16, kSlot = 2048;
  std::vector<std::uint8_t> slot_bytes = std::vector<std::uint8_t>(kBatch * kSlot);
  std::array<std::span<std::uint8_t>, kBatch> slots{};
  std::array<std::size_t, kBatch> lengths{};
  std::array<transport::Arrival, kBatch> arrivals{};
};

// A minimal IPv4 packet of `size` bytes (the plain core carries any bytes).
inline std::vector<std::uint8_t> ip_packet(std::size_t size, std::uint8_t fill) {
  std::vector<std::uint8_t> p(size, fill);
  p[0] = 0x45;
  return p;
}

// What stage_ten_then_connect saw.
struct StagedRun {
  int accepted = 0;                        // of the 10 packets
  std::uint64_t delivered_while_cut = 0;   // at b before a's datagrams passed
  bool only_secure_types = true;           // every datagram from a was a secure-layer message
};

// The inner core of `a` sends 10 packets (fills 0-9) while every datagram a sends is dropped (no
// key yet: they are staged); then a's datagrams pass and 3 s go by: a handshake completes and
// the staged datagrams leave.
inline StagedRun stage_ten_then_connect(CorePair& p) {
  StagedRun r;
  bool pass = false;
  p.tap_ab = [&](std::span<const std::uint8_t> d) {
    r.only_secure_types = r.only_secure_types && d[0] >= wire::kTypeInitiation && d[0] <= wire::kTypeData;
    return pass;
  };
  for (std::uint8_t i = 0; i < 10; ++i) r.accepted += p.a->send(ip_packet(200, i), p.now) == transport::SendResult::accepted;
  p.step();
  r.delivered_while_cut = p.delivered_b;
  pass = true;
  p.now += std::chrono::seconds(1);   // past the handshake's retry: a new initiation goes out
  for (int i = 0; i < 20; ++i) {
    p.now += std::chrono::milliseconds(100);
    p.step();
  }
  p.tap_ab = [](auto) { return true; };
  return r;
}

}  // namespace ncgw::crypto::test
