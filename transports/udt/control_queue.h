// A preallocated FIFO of small control packets (ACK, ACK2, NAK, keep-alive, handshake, ...) waiting
// to go out ahead of data. Full: the new packet is dropped and counted.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <span>

namespace ncgw::udt {

class ControlQueue {
 public:
  static constexpr std::size_t kSlotBytes = 64;  // handshake (64) is the largest queued packet
  static constexpr std::size_t kSlots = 256;

  // A slot to write the next packet into, or empty if the queue is full.
  std::span<std::uint8_t> reserve() {
    if (count_ == kSlots) { ++dropped_; return {}; }
    return slots_[(head_ + count_) % kSlots].bytes;
  }
  // Commits the reserved slot with `len` bytes (0: nothing written).
  void commit(std::size_t len) {
    if (len == 0 || count_ == kSlots) return;
    slots_[(head_ + count_) % kSlots].len = static_cast<std::uint8_t>(len);
    ++count_;
  }
  // Copies the oldest packet into `out` and removes it; returns its size (0: empty or out too small).
  std::size_t pop(std::span<std::uint8_t> out) {
    if (count_ == 0) return 0;
    const Slot& s = slots_[head_];
    if (out.size() < s.len) return 0;
    std::memcpy(out.data(), s.bytes.data(), s.len);
    head_ = (head_ + 1) % kSlots;
    --count_;
    return s.len;
  }
  bool empty() const { return count_ == 0; }
  void clear() { head_ = count_ = 0; }
  std::uint64_t dropped() const { return dropped_; }

 private:
  struct Slot {
    std::array<std::uint8_t, kSlotBytes> bytes{};
    std::uint8_t len = 0;
  };
  std::array<Slot, kSlots> slots_{};
  std::size_t head_ = 0;
  std::size_t count_ = 0;
  std::uint64_t dropped_ = 0;
};

}  // namespace ncgw::udt
