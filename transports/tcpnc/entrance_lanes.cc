#include "transports/tcpnc/entrance_lanes.h"

#include "transports/common/flow_key.h"

namespace ncgw::tcpnc {

EntranceLanes::EntranceLanes(std::size_t bulk_capacity, std::size_t slot_bytes, bool sparse_priority)
    : sparse_priority_(sparse_priority),
      sparse_(sparse_priority ? kSparseLanePackets : 1, slot_bytes),
      bulk_(bulk_capacity, slot_bytes) {}

std::size_t EntranceLanes::bucket_of(std::span<const std::uint8_t> packet) {
  const auto key = transport::parse_flow(packet);
  if (!key) return kNoFlowBucket;
  return static_cast<std::size_t>(transport::hash(*key)) & (kFlowBuckets - 1);
}

EntranceLanes::Placement EntranceLanes::place(std::span<const std::uint8_t> packet) const {
  const std::size_t b = bucket_of(packet);  // also header compression's context (front_bucket)
  if (!sparse_priority_) return {Lane::bulk, b};  // one FIFO
  const bool sparse = sparse_.size() < kSparseLanePackets && b != kNoFlowBucket && waiting_[b] == 0;
  return {sparse ? Lane::sparse : Lane::bulk, b};
}

bool EntranceLanes::push(std::span<const std::uint8_t> packet, transport::TimePoint now, Placement where) {
  PacketQueue& q = where.lane == Lane::sparse ? sparse_ : bulk_;
  if (!q.push(packet, now, static_cast<std::uint32_t>(where.bucket))) return false;
  if (where.bucket != kNoFlowBucket) ++waiting_[where.bucket];
  return true;
}

std::span<const std::uint8_t> EntranceLanes::front() const {
  return sparse_.empty() ? bulk_.front() : sparse_.front();
}

std::size_t EntranceLanes::front_bucket() const {
  return sparse_.empty() ? bulk_.front_tag() : sparse_.front_tag();
}

transport::TimePoint EntranceLanes::front_arrival() const {
  return sparse_.empty() ? bulk_.front_arrival() : sparse_.front_arrival();
}

void EntranceLanes::release(std::uint32_t bucket) {
  if (bucket != kNoFlowBucket && waiting_[bucket] > 0) --waiting_[bucket];
}

void EntranceLanes::pop() {
  if (!sparse_.empty()) {
    release(sparse_.front_tag());
    sparse_.pop();
  } else if (!bulk_.empty()) {
    pop_bulk();
  }
}

void EntranceLanes::pop_bulk() {
  if (bulk_.empty()) return;
  release(bulk_.front_tag());
  bulk_.pop();
}

void EntranceLanes::clear() {
  sparse_.clear();
  bulk_.clear();
  waiting_.fill(0);
}

}  // namespace ncgw::tcpnc
