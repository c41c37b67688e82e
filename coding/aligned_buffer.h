// An owned, zero-initialised, kSymbolAlign-aligned byte block; allocated once, never per packet.
// Zeroed by calloc, so a large block's pages are the allocator's fresh zero pages and take memory
// only when first written: a decoder sized for 255-source CWs at a rate whose CWs hold 13 costs
// about what 13 rows per slot do.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>

namespace ncgw::coding {

// Fixed-size aligned byte block (move-only).
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  // Allocates `size` bytes (rounded up to kSymbolAlign), 64-byte aligned, zeroed.
  explicit AlignedBuffer(std::size_t size);
  AlignedBuffer(AlignedBuffer&& o) noexcept
      : block_(std::move(o.block_)), data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  AlignedBuffer& operator=(AlignedBuffer&& o) noexcept {
    block_ = std::move(o.block_);
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
    return *this;
  }
  // First byte.
  std::uint8_t* data() { return data_; }
  // First byte (const).
  const std::uint8_t* data() const { return data_; }
  // Allocated size in bytes.
  std::size_t size() const { return size_; }
  // The whole block as a span.
  std::span<std::uint8_t> span() { return {data_, size_}; }

 private:
  struct Free { void operator()(std::uint8_t* p) const; };
  std::unique_ptr<std::uint8_t[], Free> block_;  // what calloc returned
  std::uint8_t* data_ = nullptr;                 // first aligned byte inside block_
  std::size_t size_ = 0;
};

}  // namespace ncgw::coding
