// Aligned, zeroed allocation for symbol storage.
#include "coding/aligned_buffer.h"

#include <cstdlib>
#include <new>

#include "coding/wire.h"

namespace ncgw::coding {

AlignedBuffer::AlignedBuffer(std::size_t size) : size_(padded_length(size)) {
  void* p = std::calloc(size_ + kSymbolAlign, 1);  // no aligned calloc: align inside the block
  if (p == nullptr) throw std::bad_alloc();
  block_.reset(static_cast<std::uint8_t*>(p));
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  data_ = block_.get() + (kSymbolAlign - addr % kSymbolAlign) % kSymbolAlign;
}

void AlignedBuffer::Free::operator()(std::uint8_t* p) const { std::free(p); }

}  // namespace ncgw::coding
