// Which of a tunnel's parallel UDT channels carries each inner flow (paper 001's parallel UDT,
// adapted to a tunnel: docs/udt-parallel.md). Flows hash into kBuckets buckets; a bucket is pinned
// to one channel slot, and each channel delivers in order, so no inner flow is reordered. When the
// set of channels changes, a bucket moves to its new slot only once everything it queued on the
// old slot has been acknowledged (or the old slot is gone). Pure: no clock, no I/O.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace ncgw::udt {

class ChannelMap {
 public:
  static constexpr std::size_t kBuckets = 256;  // flow buckets (hash of the inner 5-tuple)
  static constexpr int kMaxSlots = 64;          // channel slots (udt.channels is at most 64)
  static constexpr int kNone = -1;              // no slot

  // The bucket of an IP packet: a hash of its inner 5-tuple; malformed packets share bucket 0.
  static std::size_t bucket_of(std::span<const std::uint8_t> ip_packet);

  // The slots that take new flows (bit i = slot i): every bucket's target becomes the active slot
  // of highest hash weight (rendezvous hashing: adding a slot moves about 1/n of the buckets).
  void set_active(std::uint64_t slot_mask);
  std::uint64_t active() const { return active_; }

  // The slot bucket `b` sends on now. `acked(slot)` gives the packets the slot has had
  // acknowledged so far, or nothing if the slot is gone; the bucket moves to its target when its
  // current slot is gone or has acknowledged every packet the bucket queued there.
  template <class AckedFn>
  int route(std::size_t b, AckedFn&& acked) {
    Bucket& k = buckets_[b];
    if (k.slot != k.target) {
      const std::optional<std::uint64_t> a = k.slot == kNone ? std::nullopt : acked(k.slot);
      if (!a || *a >= k.last_queued) move(k);
    }
    return k.slot;
  }
  // Records that bucket `b` queued a packet on its slot, which has now queued `queued_total`.
  void queued(std::size_t b, std::uint64_t queued_total) { buckets_[b].last_queued = queued_total; }
  // Moves every bucket that waits to move and may (as in route); returns how many still wait.
  // Walks all buckets: call it now and then, off the per-packet path.
  template <class AckedFn>
  std::size_t settle(AckedFn&& acked) {
    std::size_t waiting = 0;
    for (std::size_t b = 0; b < kBuckets; ++b) waiting += route(b, acked) != buckets_[b].target ? 1 : 0;
    return waiting;
  }
  // True if some bucket still sends on `slot`.
  bool in_use(int slot) const;
  // Buckets moved so far.
  std::uint64_t moves() const { return moves_; }
  // The slot bucket `b` is on (kNone if it never sent).
  int slot_of(std::size_t b) const { return buckets_[b].slot; }

 private:
  struct Bucket {
    std::int8_t slot = kNone;        // where its packets go now
    std::int8_t target = kNone;      // where it belongs under the active set
    std::uint64_t last_queued = 0;   // its slot's queued total after its last packet
  };
  void move(Bucket& k);

  std::array<Bucket, kBuckets> buckets_{};
  std::uint64_t active_ = 0;
  std::uint64_t moves_ = 0;
};

}  // namespace ncgw::udt
