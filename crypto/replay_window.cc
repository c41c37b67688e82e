#include "crypto/replay_window.h"

namespace ncgw::crypto {

namespace {
constexpr std::uint64_t kMask = ReplayWindow::kBlocks - 1;
std::uint64_t bit_of(std::uint64_t counter) { return std::uint64_t{1} << (counter & 63); }
}  // namespace

bool ReplayWindow::check(std::uint64_t counter) const {
  if (counter > top_) return true;
  if (top_ - counter > kWindow) return false;
  return (bits_[(counter >> 6) & kMask] & bit_of(counter)) == 0;
}

bool ReplayWindow::update(std::uint64_t counter) {
  if (!check(counter)) return false;
  if (counter > top_) {
    const std::uint64_t current = top_ >> 6;
    const std::uint64_t target = counter >> 6;
    const std::uint64_t steps = target - current < kBlocks ? target - current : kBlocks;
    for (std::uint64_t i = 1; i <= steps; ++i) bits_[(current + i) & kMask] = 0;
    top_ = counter;
  }
  bits_[(counter >> 6) & kMask] |= bit_of(counter);
  return true;
}

}  // namespace ncgw::crypto
