// Frame buffers for linkem's I/O layer: fixed-size slots, grown on demand and recycled, so the
// steady state allocates nothing per frame.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace linkem {

// A pool of equally sized byte slots addressed by 32-bit handles.
class FramePool {
 public:
  // Slots of `slot_size` bytes, allocated `chunk` at a time.
  explicit FramePool(std::uint32_t slot_size, std::uint32_t chunk = 1024)
      : slot_size_(slot_size), chunk_(chunk) {}
  // A free slot's handle (grows the pool when none is free).
  std::uint32_t acquire() {
    if (free_.empty()) grow();
    std::uint32_t h = free_.back();
    free_.pop_back();
    return h;
  }
  // Returns a slot to the pool.
  void release(std::uint32_t h) { free_.push_back(h); }
  // The bytes of slot `h`.
  std::uint8_t* data(std::uint32_t h) {
    return chunks_[h / chunk_].get() + static_cast<std::size_t>(h % chunk_) * slot_size_;
  }
  // Bytes per slot.
  std::uint32_t slot_size() const { return slot_size_; }
  // Slots allocated so far.
  std::size_t capacity() const { return chunks_.size() * chunk_; }

 private:
  // Adds one chunk of slots to the free list.
  void grow() {
    std::uint32_t base = static_cast<std::uint32_t>(chunks_.size()) * chunk_;
    chunks_.push_back(std::make_unique<std::uint8_t[]>(static_cast<std::size_t>(chunk_) * slot_size_));
    for (std::uint32_t i = chunk_; i-- > 0;) free_.push_back(base + i);
  }
  std::uint32_t slot_size_, chunk_;
  std::vector<std::unique_ptr<std::uint8_t[]>> chunks_;
  std::vector<std::uint32_t> free_;
};

}  // namespace linkem
