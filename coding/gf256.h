// Scalar GF(2^8) arithmetic over 0x11D: the plain C++ reference the tests use as the oracle.
#pragma once
#include <cstdint>

namespace ncgw::coding::gf {

// Product a*b in GF(2^8) (log/antilog tables).
std::uint8_t mul(std::uint8_t a, std::uint8_t b);
// Multiplicative inverse of a (a != 0); inv(0) is defined as 0.
std::uint8_t inv(std::uint8_t a);
// Row of the full multiplication table: mul_row(c)[x] == mul(c, x).
const std::uint8_t* mul_row(std::uint8_t c);

}  // namespace ncgw::coding::gf
