// The anti-replay window: in-order, duplicates, reorder inside the window, far behind it, large
// jumps, and the ring of blocks wrapping many times.
#include <gtest/gtest.h>

#include "crypto/replay_window.h"

namespace ncgw::crypto {
namespace {

TEST(ReplayWindow, AtLeast8192) { EXPECT_GE(ReplayWindow::kWindow, 8192u); }

TEST(ReplayWindow, InOrderOnceEach) {
  ReplayWindow w;
  for (std::uint64_t c = 0; c < 100; ++c) {
    EXPECT_TRUE(w.update(c));
    EXPECT_FALSE(w.update(c));
  }
}

TEST(ReplayWindow, ReorderInsideWindowAcceptedOnce) {
  ReplayWindow w;
  ASSERT_TRUE(w.update(10000));
  for (std::uint64_t c = 10000 - ReplayWindow::kWindow; c < 10000; c += 7) {
    EXPECT_TRUE(w.update(c)) << c;
    EXPECT_FALSE(w.update(c)) << c;
  }
}

TEST(ReplayWindow, FarBehindRejected) {
  ReplayWindow w;
  ASSERT_TRUE(w.update(100000));
  EXPECT_FALSE(w.check(100000 - ReplayWindow::kWindow - 1));
  EXPECT_FALSE(w.check(0));
  EXPECT_TRUE(w.check(100000 - ReplayWindow::kWindow));
}

TEST(ReplayWindow, JumpClearsOldBits) {
  ReplayWindow w;
  for (std::uint64_t c = 0; c < 64 * ReplayWindow::kBlocks; ++c) ASSERT_TRUE(w.update(c));
  const std::uint64_t far = 1'000'000'007;
  ASSERT_TRUE(w.update(far));
  // Every counter inside the new window is fresh, whatever bits its ring slot held before.
  for (std::uint64_t c = far - ReplayWindow::kWindow; c < far; c += 61) EXPECT_TRUE(w.check(c)) << c;
  EXPECT_FALSE(w.check(far));
}

TEST(ReplayWindow, RingWrapsManyTimes) {
  ReplayWindow w;
  const std::uint64_t n = 64 * ReplayWindow::kBlocks * 5 + 33;
  for (std::uint64_t c = 0; c < n; c += 2) ASSERT_TRUE(w.update(c)) << c;
  for (std::uint64_t c = (n - ReplayWindow::kWindow) | 1; c < n; c += 2) EXPECT_TRUE(w.update(c)) << c;  // the odd ones
  for (std::uint64_t c = n - 1000; c < n; ++c) EXPECT_FALSE(w.check(c)) << c;
}

TEST(ReplayWindow, NearTopOfRange) {
  ReplayWindow w;
  const std::uint64_t top = ~std::uint64_t{0} - 1;
  ASSERT_TRUE(w.update(top));
  EXPECT_TRUE(w.update(top + 1));
  EXPECT_FALSE(w.update(top));
  EXPECT_TRUE(w.update(top - 100));
}

}  // namespace
}  // namespace ncgw::crypto
