// ISA-L kernels. Tables for several coefficients are assembled on the stack from the shared
// 256 x 32-byte table (no ec_init_tables, no allocation).
#include "coding/backend_isal.h"

#include <isa-l/erasure_code.h>
#include <isa-l/gf_vect_mul.h>

#include <array>
#include <cstring>

#include "coding/wire.h"

namespace ncgw::coding {
namespace {

using Uchar = unsigned char;

// Expansion tables of all 256 coefficients, built by ISA-L itself.
struct AllTables {
  alignas(64) std::array<std::uint8_t, 256 * 32> t{};
  AllTables() {
    for (unsigned c = 0; c < 256; ++c) gf_vect_mul_init(static_cast<Uchar>(c), t.data() + 32 * c);
  }
};

const AllTables& all_tables() {
  static const AllTables t;
  return t;
}

// Concatenates the tables of coefs[0..count) into out (count <= kMaxWindow).
void gather(std::size_t count, const std::uint8_t* coefs, std::uint8_t* out) {
  for (std::size_t i = 0; i < count; ++i) std::memcpy(out + 32 * i, isal_table(coefs[i]), 32);
}

// Clears the upper halves of the vector registers after an ISA-L AVX kernel, which returns
// without vzeroupper; the compiler's SSE code that follows would otherwise pay a state penalty.
inline void clear_upper() {
#if defined(__x86_64__)
  static const bool avx = __builtin_cpu_supports("avx");
  if (avx) asm volatile("vzeroupper" ::: "memory");
#endif
}

}  // namespace

const std::uint8_t* isal_table(std::uint8_t c) { return all_tables().t.data() + 32 * c; }

void IsalKernels::mad(std::size_t len, std::uint8_t c, const std::uint8_t* src,
                      std::uint8_t* dest) const {
  if (c == 0) return;
  gf_vect_mad(static_cast<int>(len), 1, 0, const_cast<Uchar*>(isal_table(c)),
              const_cast<Uchar*>(src), dest);
  clear_upper();
}

void IsalKernels::mad_rows(std::size_t len, std::size_t rows, const std::uint8_t* coefs,
                           const std::uint8_t* src, std::uint8_t* const* dests) const {
  while (rows > 0) {
    const std::size_t chunk = rows < kMaxWindow ? rows : kMaxWindow;
    alignas(64) std::array<std::uint8_t, 32 * kMaxWindow> tbl;
    gather(chunk, coefs, tbl.data());
    ec_encode_data_update(static_cast<int>(len), 1, static_cast<int>(chunk), 0, tbl.data(),
                          const_cast<Uchar*>(src), const_cast<Uchar**>(dests));
    clear_upper();
    rows -= chunk;
    coefs += chunk;
    dests += chunk;
  }
}

void IsalKernels::scale(std::size_t len, std::uint8_t c, std::uint8_t* buf) const {
  gf_vect_mul(static_cast<int>(len), const_cast<Uchar*>(isal_table(c)), buf, buf);
  clear_upper();
}

void IsalKernels::dot(std::size_t len, std::size_t count, const std::uint8_t* coefs,
                      const std::uint8_t* const* srcs, std::uint8_t* dest) const {
  alignas(64) std::array<std::uint8_t, 32 * kMaxWindow> tbl;
  std::uint8_t* out[1] = {dest};
  std::size_t done = 0;
  while (done < count) {  // more than kMaxWindow sources never happens; chunk for safety
    const std::size_t chunk = count - done < kMaxWindow ? count - done : kMaxWindow;
    gather(chunk, coefs + done, tbl.data());
    if (done == 0) {
      ec_encode_data(static_cast<int>(len), static_cast<int>(chunk), 1, tbl.data(),
                     const_cast<Uchar**>(srcs), out);
    } else {
      for (std::size_t i = 0; i < chunk; ++i) mad(len, coefs[done + i], srcs[done + i], dest);
    }
    done += chunk;
  }
  clear_upper();
  if (count == 0) std::memset(dest, 0, len);
}

}  // namespace ncgw::coding
