// A bounded FIFO of variable-length packets stored in fixed slots allocated once, so queueing
// and dequeueing a packet never touches the heap.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

namespace ncgw::transport {

// FIFO of up to `capacity` packets of at most `slot_size` bytes each.
class PacketRing {
 public:
  // Allocates capacity x slot_size bytes up front.
  PacketRing(std::size_t capacity, std::size_t slot_size)
      : slot_size_(slot_size), storage_(capacity * slot_size), lengths_(capacity) {}

  // Appends a copy of `packet`; false if the ring is full or the packet exceeds a slot.
  bool push(std::span<const std::uint8_t> packet) {
    if (full() || packet.size() > slot_size_) return false;
    const std::size_t slot = (head_ + count_) % lengths_.size();
    std::memcpy(&storage_[slot * slot_size_], packet.data(), packet.size());
    lengths_[slot] = packet.size();
    ++count_;
    return true;
  }
  // The oldest packet, valid until the next pop(); empty span if the ring is empty.
  std::span<const std::uint8_t> front() const {
    if (count_ == 0) return {};
    return {&storage_[head_ * slot_size_], lengths_[head_]};
  }
  // Drops the oldest packet (no-op when empty).
  void pop() {
    if (count_ == 0) return;
    head_ = (head_ + 1) % lengths_.size();
    --count_;
  }
  // Copies the oldest packet into `out` and pops it; nothing if empty or `out` is too small
  // (then the packet stays queued).
  std::optional<std::size_t> pop_into(std::span<std::uint8_t> out) {
    if (count_ == 0 || out.size() < lengths_[head_]) return std::nullopt;
    const std::size_t n = lengths_[head_];
    std::memcpy(out.data(), &storage_[head_ * slot_size_], n);
    pop();
    return n;
  }
  // Number of queued packets.
  std::size_t size() const { return count_; }
  // True when no packet is queued.
  bool empty() const { return count_ == 0; }
  // True when push() would fail for lack of a slot.
  bool full() const { return count_ == lengths_.size(); }
  // Largest packet a slot holds.
  std::size_t slot_size() const { return slot_size_; }

 private:
  std::size_t slot_size_;
  std::vector<std::uint8_t> storage_;
  std::vector<std::size_t> lengths_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
};

}  // namespace ncgw::transport
