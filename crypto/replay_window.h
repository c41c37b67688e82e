// Sliding anti-replay window over 64-bit record counters, after RFC 6479: a ring of 64-bit blocks;
// moving the window forward clears whole blocks, so the cost does not depend on how far it moves.
// A counter is accepted once; counters more than kWindow below the highest seen are rejected.
#pragma once
#include <array>
#include <cstdint>

namespace ncgw::crypto {

class ReplayWindow {
 public:
  static constexpr std::size_t kBlocks = 256;                    // ring size (a power of two)
  static constexpr std::uint64_t kWindow = (kBlocks - 1) * 64;   // 16320 counters behind the top

  // True if `counter` has not been seen and is inside the window (does not record it).
  bool check(std::uint64_t counter) const;
  // Records `counter` (call after the record authenticated); false if check() would fail.
  bool update(std::uint64_t counter);
  // Highest counter recorded (0 before any).
  std::uint64_t top() const { return top_; }

 private:
  std::array<std::uint64_t, kBlocks> bits_{};
  std::uint64_t top_ = 0;
};

}  // namespace ncgw::crypto
