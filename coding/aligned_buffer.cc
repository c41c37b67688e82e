// Aligned, zeroed allocation for symbol storage.
#include "coding/aligned_buffer.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "coding/wire.h"

namespace ncgw::coding {

AlignedBuffer::AlignedBuffer(std::size_t size) : size_(padded_length(size)) {
  void* p = std::aligned_alloc(kSymbolAlign, size_);
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, 0, size_);
  data_.reset(static_cast<std::uint8_t*>(p));
}

void AlignedBuffer::Free::operator()(std::uint8_t* p) const { std::free(p); }

}  // namespace ncgw::coding
