// Receiver sequence accounting of the plain transport: gaps, reordering, duplicates, wrap, resyncs.
#include <gtest/gtest.h>

#include <initializer_list>

#include "transports/plain/sequence.h"

namespace ncgw::plain {
namespace {

// A tracker fed the given sequence numbers in order.
SeqTracker fed(std::initializer_list<int> seqs) {
  SeqTracker t;
  for (int s : seqs) t.on_arrival(static_cast<std::uint16_t>(s));
  return t;
}

TEST(SeqTracker, InOrderArrivalsLoseNothing) {
  const SeqTracker t = fed({0, 1, 2, 3, 4});
  EXPECT_EQ(t.counters().lost(), 0u);
  EXPECT_EQ(t.counters().gaps, 0u);
  EXPECT_EQ(t.counters().resyncs, 0u);
}

TEST(SeqTracker, GapsCountAsLost) {
  const SeqTracker t = fed({0, 1, 4, 5, 9});
  EXPECT_EQ(t.counters().gaps, 5u);   // 2, 3, 6, 7, 8
  EXPECT_EQ(t.counters().lost(), 5u);
}

TEST(SeqTracker, LateArrivalFillsItsGap) {
  const SeqTracker t = fed({0, 1, 3, 4, 2});
  EXPECT_EQ(t.counters().gaps, 1u);
  EXPECT_EQ(t.counters().late, 1u);
  EXPECT_EQ(t.counters().lost(), 0u);
}

TEST(SeqTracker, DuplicateIsNotALateFill) {
  const SeqTracker t = fed({0, 1, 3, 3, 1});
  EXPECT_EQ(t.counters().duplicates, 2u);
  EXPECT_EQ(t.counters().late, 0u);
  EXPECT_EQ(t.counters().lost(), 1u);
}

TEST(SeqTracker, OnlyTheReorderWindowIsRemembered) {
  SeqTracker t = fed({1, 3});                         // 2 missing
  for (int s = 4; s <= 3 + SeqTracker::kReorderWindow; ++s) t.on_arrival(static_cast<std::uint16_t>(s));
  t.on_arrival(2);                                    // 66 behind: beyond the window, ignored
  t.on_arrival(static_cast<std::uint16_t>(4 + SeqTracker::kReorderWindow));
  EXPECT_EQ(t.counters().late, 0u);
  EXPECT_EQ(t.counters().stale, 1u);
  EXPECT_EQ(t.counters().resyncs, 0u);
  EXPECT_EQ(t.counters().lost(), 1u);
}

TEST(SeqTracker, CountsAcrossTheWrap) {
  const SeqTracker t = fed({65533, 65534, 65535, 1, 2});
  EXPECT_EQ(t.counters().gaps, 1u);   // 0
  EXPECT_EQ(t.counters().resyncs, 0u);
}

TEST(SeqTracker, SequenceZeroAfterOthersIsARestartedSender) {
  const SeqTracker t = fed({100, 101, 0, 1, 2});
  EXPECT_EQ(t.counters().resyncs, 1u);
  EXPECT_EQ(t.counters().lost(), 0u);
}

TEST(SeqTracker, HugeJumpIsStaleAndARunOfThemResynchronises) {
  SeqTracker t = fed({1, 2});
  const int far = 3 + SeqTracker::kMaxCountedGap + 1;
  for (int i = 0; i < SeqTracker::kResyncAfter; ++i) {
    EXPECT_EQ(t.counters().resyncs, 0u);
    t.on_arrival(static_cast<std::uint16_t>(far + i));
  }
  EXPECT_EQ(t.counters().resyncs, 1u);
  EXPECT_EQ(t.counters().stale, std::uint64_t(SeqTracker::kResyncAfter));
  t.on_arrival(static_cast<std::uint16_t>(far + SeqTracker::kResyncAfter));
  EXPECT_EQ(t.counters().lost(), 0u);
  const SeqTracker u = fed({1, 2, 3 + SeqTracker::kMaxCountedGap});
  EXPECT_EQ(u.counters().resyncs, 0u);
  EXPECT_EQ(u.counters().lost(), std::uint64_t(SeqTracker::kMaxCountedGap));
}

TEST(SeqTracker, StragglerFromBeforeAResyncIsNotALateFill) {
  SeqTracker t = fed({500, 501, 0, 1});  // the sender restarted at 0
  t.on_arrival(65535);                    // 2 behind the newest: from before the restart point
  EXPECT_EQ(t.counters().late, 0u);
  EXPECT_EQ(t.counters().duplicates, 1u);
  EXPECT_EQ(t.counters().lost(), 0u);
}

}  // namespace
}  // namespace ncgw::plain
