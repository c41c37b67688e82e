// A bounded FIFO of IP packets in preallocated fixed-size slots (the uncoded part of the sending
// buffer): no allocation after construction.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "transports/common/time.h"

namespace ncgw::tcpnc {

// Ring of `capacity` slots of `slot_bytes` each.
class PacketQueue {
 public:
  PacketQueue(std::size_t capacity, std::size_t slot_bytes);
  // Appends a copy, stamped with its arrival time `now` and the caller's `tag` (kept with it until
  // it is popped); false if full or too big.
  bool push(std::span<const std::uint8_t> packet, transport::TimePoint now = {}, std::uint32_t tag = 0);
  // The oldest packet (requires !empty()).
  std::span<const std::uint8_t> front() const;
  // When the oldest packet arrived (requires !empty()).
  transport::TimePoint front_arrival() const { return arrivals_[head_]; }
  // The oldest packet's tag (requires !empty()).
  std::uint32_t front_tag() const { return tags_[head_]; }
  // Drops the oldest packet.
  void pop();
  // Drops everything.
  void clear() { head_ = 0; size_ = 0; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::size_t capacity() const { return lengths_.size(); }

 private:
  std::size_t slot_;
  std::vector<std::uint8_t> bytes_;
  std::vector<std::uint32_t> lengths_;
  std::vector<transport::TimePoint> arrivals_;
  std::vector<std::uint32_t> tags_;
  std::size_t head_ = 0, size_ = 0;
};

}  // namespace ncgw::tcpnc
