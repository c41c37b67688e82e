// The bounded flow table: every flow seen at one tunnel entrance with its counters, rates of the
// last period, allocation and token bucket. Fixed capacity, allocated once: a flood of new
// 5-tuples evicts the flow idle longest (least recently seen) and counts it; flows idle past a
// timeout expire. Lookups and inserts never allocate. Sans-I/O: time is an argument.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "gateway/fudp/flow_key.h"
#include "gateway/fudp/token_bucket.h"
#include "transports/common/time.h"

namespace ncgw::fudp {

// "No allocation": the flow is not shaped.
inline constexpr double kUnlimited = std::numeric_limits<double>::infinity();

// One flow's record.
struct Flow {
  FlowKey key;
  FlowClass cls = FlowClass::other;
  transport::TimePoint first_seen{}, last_seen{};
  std::uint64_t packets = 0, bytes = 0;            // offered at the entrance, since first seen
  std::uint64_t dropped_packets = 0, dropped_bytes = 0;  // refused by the token bucket
  std::uint64_t period_bytes = 0, period_passed_bytes = 0, period_packets = 0;  // current period
  double rate_Bps = 0;                             // offered rate over the last period (bytes/s)
  double passed_Bps = 0;                           // rate that passed the bucket, last period
  double allocation_Bps = kUnlimited;              // UDP allocation (Algorithm 1); unlimited: unshaped
  TokenBucket bucket;
};

// What the table did since it was built.
struct FlowTableCounters {
  std::uint64_t inserted = 0;  // new flows
  std::uint64_t evicted = 0;   // flows pushed out by a new one while the table was full
  std::uint64_t expired = 0;   // flows removed after the idle timeout
};

// Fixed-capacity hash table of flows with a recency list (most recently seen first).
class FlowTable {
 public:
  // Room for `capacity` flows (at least 1), allocated here and never again.
  explicit FlowTable(std::size_t capacity);

  // The flow of `key`, created if new (evicting the least recently seen when full); marks it
  // seen at `now`. Never null.
  Flow& touch(const FlowKey& key, transport::TimePoint now);
  // The flow of `key` if present (does not change recency).
  const Flow* find(const FlowKey& key) const;
  // Removes flows not seen for `idle` or longer; returns how many.
  std::size_t expire(transport::TimePoint now, transport::Duration idle);

  // Calls fn(Flow&) for every flow, most recently seen first.
  template <typename F>
  void for_each(F&& fn) {
    for (std::uint32_t i = head_; i != kNil; i = slots_[i].next) fn(slots_[i].flow);
  }
  template <typename F>
  void for_each(F&& fn) const {
    for (std::uint32_t i = head_; i != kNil; i = slots_[i].next) fn(static_cast<const Flow&>(slots_[i].flow));
  }

  std::size_t size() const { return size_; }
  std::size_t capacity() const { return slots_.size(); }
  const FlowTableCounters& counters() const { return counters_; }

 private:
  static constexpr std::uint32_t kNil = 0xFFFFFFFFu;

  // A slot: the flow, its place in the recency list and in its bucket's chain.
  struct Slot {
    Flow flow;
    std::uint32_t prev = kNil, next = kNil;  // recency list (head: most recent)
    std::uint32_t chain = kNil;              // next slot in the same bucket, or in the free list
  };

  // The bucket index of a key.
  std::uint32_t bucket_of(const FlowKey& key) const;
  // The slot holding `key`, or kNil.
  std::uint32_t lookup(const FlowKey& key) const;
  // Takes slot i out of the recency list.
  void unlink_recency(std::uint32_t i);
  // Puts slot i at the head of the recency list (most recently seen).
  void push_front(std::uint32_t i);
  // Takes slot i out of its bucket's chain.
  void unlink_bucket(std::uint32_t i);
  // Frees slot i (bucket, recency list, size); counters are the caller's.
  void remove(std::uint32_t i);
  // A free slot, evicting the least recently seen flow when there is none.
  std::uint32_t take_slot();

  std::vector<Slot> slots_;
  std::vector<std::uint32_t> buckets_;  // power of two, at least twice the capacity
  std::uint32_t head_ = kNil, tail_ = kNil, free_ = kNil;
  std::size_t size_ = 0;
  FlowTableCounters counters_;
};

}  // namespace ncgw::fudp
