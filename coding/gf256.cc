// Scalar GF(2^8) tables over 0x11D, built once at first use.
#include "coding/gf256.h"

#include <array>

#include "coding/wire.h"

namespace ncgw::coding::gf {
namespace {

// Log/antilog and full product tables.
struct Tables {
  std::array<std::uint8_t, 512> exp{};
  std::array<std::uint8_t, 256> log{};
  std::array<std::array<std::uint8_t, 256>, 256> prod{};
  Tables() {
    unsigned x = 1;
    for (unsigned i = 0; i < 255; ++i) {
      exp[i] = static_cast<std::uint8_t>(x);
      log[x] = static_cast<std::uint8_t>(i);
      x <<= 1;
      if (x & 0x100) x ^= kGfPolynomial;
    }
    for (unsigned i = 255; i < 512; ++i) exp[i] = exp[i - 255];
    for (unsigned a = 0; a < 256; ++a)
      for (unsigned b = 0; b < 256; ++b)
        prod[a][b] = (a == 0 || b == 0) ? 0 : exp[log[a] + log[b]];
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

}  // namespace

std::uint8_t mul(std::uint8_t a, std::uint8_t b) { return tables().prod[a][b]; }

std::uint8_t inv(std::uint8_t a) {
  if (a == 0) return 0;
  return tables().exp[255 - tables().log[a]];
}

const std::uint8_t* mul_row(std::uint8_t c) { return tables().prod[c].data(); }

}  // namespace ncgw::coding::gf
