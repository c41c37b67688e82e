// Serial-number arithmetic (RFC 1982 style) for counters that travel as their low bits only.
#pragma once
#include <cstdint>

namespace ncgw::transport {

// The 64-bit value closest to `expected` whose low `Bits` bits equal `wire`; a value that would
// fall below zero is taken as `wire` itself. Correct while the true value is within
// 2^(Bits-1) of `expected`.
template <unsigned Bits>
constexpr std::uint64_t unwrap_serial(std::uint64_t expected, std::uint64_t wire) {
  static_assert(Bits >= 8 && Bits <= 32);
  constexpr std::uint64_t kModulus = std::uint64_t{1} << Bits;
  constexpr std::uint64_t kMask = kModulus - 1;
  const std::uint64_t delta = (wire - expected) & kMask;   // forward distance modulo 2^Bits
  if (delta < kModulus / 2) return expected + delta;
  const std::uint64_t back = kModulus - delta;
  return back > expected ? (wire & kMask) : expected - back;
}

}  // namespace ncgw::transport
