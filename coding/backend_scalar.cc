// The scalar reference kernels: byte-at-a-time table lookups, obviously correct.
#include "coding/backend_scalar.h"

#include "coding/gf256.h"

namespace ncgw::coding {

void ScalarKernels::mad(std::size_t len, std::uint8_t c, const std::uint8_t* src,
                        std::uint8_t* dest) const {
  const std::uint8_t* row = gf::mul_row(c);
  for (std::size_t x = 0; x < len; ++x) dest[x] ^= row[src[x]];
}

void ScalarKernels::mad_rows(std::size_t len, std::size_t rows, const std::uint8_t* coefs,
                             const std::uint8_t* src, std::uint8_t* const* dests) const {
  for (std::size_t r = 0; r < rows; ++r) mad(len, coefs[r], src, dests[r]);
}

void ScalarKernels::scale(std::size_t len, std::uint8_t c, std::uint8_t* buf) const {
  const std::uint8_t* row = gf::mul_row(c);
  for (std::size_t x = 0; x < len; ++x) buf[x] = row[buf[x]];
}

void ScalarKernels::dot(std::size_t len, std::size_t count, const std::uint8_t* coefs,
                        const std::uint8_t* const* srcs, std::uint8_t* dest) const {
  for (std::size_t x = 0; x < len; ++x) dest[x] = 0;
  for (std::size_t i = 0; i < count; ++i) mad(len, coefs[i], srcs[i], dest);
}

}  // namespace ncgw::coding
