// A set of column (source) indexes of one CW, as wide as the largest CW: the decoder's record of
// which columns hold a row, which a row touches and which sources arrived.
#pragma once
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "coding/wire.h"

namespace ncgw::coding {

// A fixed-width bit set of CW columns with the few operations elimination needs (iteration from
// the lowest set bit, and, or); a std::bitset has no portable "lowest set bit".
class ColumnMask {
 public:
  static constexpr std::size_t kWords = (kMaxWindow + 63) / 64;  // 64-bit words held
  static constexpr std::size_t kBits = 64 * kWords;               // columns representable

  // Sets column `c` (c < kBits).
  void set(unsigned c) { w_[c / 64] |= std::uint64_t{1} << (c % 64); }
  // True if column `c` is set (false for c >= kBits).
  bool test(unsigned c) const { return c < kBits && ((w_[c / 64] >> (c % 64)) & 1U); }
  // True if no column is set.
  bool none() const {
    for (std::uint64_t x : w_)
      if (x != 0) return false;
    return true;
  }
  // Lowest set column; kBits if none.
  unsigned lowest() const {
    for (std::size_t i = 0; i < kWords; ++i)
      if (w_[i] != 0) return static_cast<unsigned>(64 * i + std::countr_zero(w_[i]));
    return kBits;
  }
  // Clears and returns the lowest set column (requires !none()).
  unsigned pop_lowest() {
    const unsigned c = lowest();
    w_[c / 64] &= w_[c / 64] - 1;  // the lowest set bit of that word is c's
    return c;
  }
  // True if every set column is below `n`.
  bool below(std::size_t n) const {
    if (n >= kBits) return true;
    if (w_[n / 64] >> (n % 64) != 0) return false;
    for (std::size_t i = n / 64 + 1; i < kWords; ++i)
      if (w_[i] != 0) return false;
    return true;
  }
  // Sets word `i` to `bits` (bit j = column 64 i + j).
  void set_word(std::size_t i, std::uint64_t bits) { w_[i] = bits; }

  ColumnMask& operator|=(const ColumnMask& o) {
    for (std::size_t i = 0; i < kWords; ++i) w_[i] |= o.w_[i];
    return *this;
  }
  friend ColumnMask operator&(ColumnMask a, const ColumnMask& b) {
    for (std::size_t i = 0; i < kWords; ++i) a.w_[i] &= b.w_[i];
    return a;
  }
  friend ColumnMask operator|(ColumnMask a, const ColumnMask& b) { return a |= b; }
  friend bool operator==(const ColumnMask&, const ColumnMask&) = default;
  // The set holding column `c` alone.
  static ColumnMask single(unsigned c) {
    ColumnMask m;
    m.set(c);
    return m;
  }

 private:
  std::array<std::uint64_t, kWords> w_{};
};

}  // namespace ncgw::coding
