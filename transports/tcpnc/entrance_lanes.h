// The sender's waiting queue in two lanes, so that light flows are not queued behind, or dropped
// for, a bulk transfer that fills the tunnel's entrance (docs/tcpnc-congestion.md, "Sparse flows").
// It is the new-flow priority of fq_codel (RFC 8290 section 4.1) reduced to two FIFO lanes: a
// packet whose flow has nothing waiting joins the sparse lane, which is served first; every other
// packet joins the bulk lane, which carries the queue limit and the AQM. A ping, a DNS query, a
// handshake or the ACKs of a transfer in the other direction thus pass a full entrance at once.
// Order within a flow is kept: a flow with a packet waiting in either lane joins the bulk lane,
// which is served after the sparse one. Flows are counted per bucket of their inner 5-tuple's hash;
// flows that share a bucket are treated as one (they may lose priority, never order).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "transports/common/time.h"
#include "transports/tcpnc/packet_queue.h"

namespace ncgw::tcpnc {

// Most packets the sparse lane holds: one per sparse flow; beyond it packets join the bulk lane.
inline constexpr std::size_t kSparseLanePackets = 64;
// Buckets of the per-flow waiting counts (a power of two).
inline constexpr std::size_t kFlowBuckets = 1024;
// The bucket of a packet without a flow key (not IP): such packets are not counted.
inline constexpr std::size_t kNoFlowBucket = kFlowBuckets;

// Two lanes of preallocated packet slots and the per-bucket waiting counts: no allocation after
// construction.
class EntranceLanes {
 public:
  // The lane a packet joins.
  enum class Lane : std::uint8_t { sparse, bulk };
  // Where a packet goes: its lane and its flow's bucket.
  struct Placement {
    Lane lane;
    std::size_t bucket;
  };

  // `bulk_capacity` slots for the bulk lane, kSparseLanePackets for the sparse one, each of
  // `slot_bytes`; `sparse_priority` false puts every packet in the bulk lane (one FIFO).
  EntranceLanes(std::size_t bulk_capacity, std::size_t slot_bytes, bool sparse_priority);

  // Where `packet` would go now.
  Placement place(std::span<const std::uint8_t> packet) const;
  // Appends a copy where place() said (with nothing pushed or popped in between), stamped with
  // `now`; false if that lane is full or the packet too big.
  bool push(std::span<const std::uint8_t> packet, transport::TimePoint now, Placement where);
  // The packet served next: the sparse lane's oldest, else the bulk lane's (requires !empty()).
  std::span<const std::uint8_t> front() const;
  // The flow bucket of front() (kNoFlowBucket for a packet without a flow key).
  std::size_t front_bucket() const;
  // When front() arrived.
  transport::TimePoint front_arrival() const;
  // Removes front().
  void pop();

  // The bulk lane alone, for the AQM (which never drops sparse packets).
  std::size_t bulk_size() const { return bulk_.size(); }
  transport::TimePoint bulk_front_arrival() const { return bulk_.front_arrival(); }
  void pop_bulk();

  std::size_t size() const { return sparse_.size() + bulk_.size(); }
  bool empty() const { return size() == 0; }
  // Drops everything.
  void clear();

 private:
  // The bucket a packet's flow counts in; kNoFlowBucket for packets without a flow key.
  static std::size_t bucket_of(std::span<const std::uint8_t> packet);
  // Uncounts a packet leaving with `bucket` (its queue tag).
  void release(std::uint32_t bucket);

  bool sparse_priority_;
  PacketQueue sparse_, bulk_;
  std::array<std::uint32_t, kFlowBuckets> waiting_{};  // packets waiting per bucket, both lanes
};

}  // namespace ncgw::tcpnc
