// GF(2^8) vector kernels behind one interface: ISA-L (SIMD, runtime dispatch) or the scalar
// reference. Buffers passed here are kSymbolAlign-aligned and `len` is a multiple of kSymbolAlign.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ncgw::coding {

// Which kernel set runs the vector math.
enum class Backend : std::uint8_t { kIsal, kScalar };

// Vector kernels; all lengths are padded (multiple of 64, >= 64), pointers 64-byte aligned.
class GfKernels {
 public:
  virtual ~GfKernels() = default;
  // dest[x] ^= c * src[x] for x < len.
  virtual void mad(std::size_t len, std::uint8_t c, const std::uint8_t* src, std::uint8_t* dest) const = 0;
  // dests[r][x] ^= coefs[r] * src[x] for r < rows (one pass over src; incremental encoding).
  virtual void mad_rows(std::size_t len, std::size_t rows, const std::uint8_t* coefs,
                        const std::uint8_t* src, std::uint8_t* const* dests) const = 0;
  // buf[x] = c * buf[x] (row normalisation).
  virtual void scale(std::size_t len, std::uint8_t c, std::uint8_t* buf) const = 0;
  // dest[x] = sum_i coefs[i] * srcs[i][x] (a fresh combination of `count` stored symbols).
  virtual void dot(std::size_t len, std::size_t count, const std::uint8_t* coefs,
                   const std::uint8_t* const* srcs, std::uint8_t* dest) const = 0;
};

// The kernel set for `b` (a static instance; thread-safe, stateless).
const GfKernels& kernels(Backend b);

// The 32-byte ISA-L expansion table of coefficient c ({c*0..c*15}, {c*0x00..c*0xF0}), shared and
// precomputed so no per-packet ec_init_tables is needed.
const std::uint8_t* isal_table(std::uint8_t c);

}  // namespace ncgw::coding
