// An owned, zero-initialised, kSymbolAlign-aligned byte block; allocated once, never per packet.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace ncgw::coding {

// Fixed-size aligned byte block (move-only).
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  // Allocates `size` bytes (rounded up to kSymbolAlign), 64-byte aligned, zeroed.
  explicit AlignedBuffer(std::size_t size);
  // First byte.
  std::uint8_t* data() { return data_.get(); }
  // First byte (const).
  const std::uint8_t* data() const { return data_.get(); }
  // Allocated size in bytes.
  std::size_t size() const { return size_; }
  // The whole block as a span.
  std::span<std::uint8_t> span() { return {data_.get(), size_}; }

 private:
  struct Free { void operator()(std::uint8_t* p) const; };
  std::unique_ptr<std::uint8_t[], Free> data_;
  std::size_t size_ = 0;
};

}  // namespace ncgw::coding
