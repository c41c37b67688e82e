// One direction of the link: serialisation at a rate, drop-tail queue, delay/jitter ordering,
// duplication, reordering, loss exemption for non-IP frames, counters.
#include <gtest/gtest.h>

#include <algorithm>

#include "netns-scenarios/linkem/delay_line.h"
#include "netns-scenarios/linkem/direction.h"

namespace linkem {
namespace {

constexpr std::int64_t kMs = 1000000;

// Settings from a spec string (the test fails on a bad spec).
DirectionSettings spec(const std::string& text) {
  DirectionSettings s;
  EXPECT_EQ(apply_spec(text, s), "");
  return s;
}

TEST(Direction, UnlimitedLinkAddsOnlyDelay) {
  Direction d(spec("delay=10ms"), 1);
  Verdict v = d.offer(1500, 5 * kMs);
  ASSERT_EQ(v.outcome, Outcome::forward);
  ASSERT_EQ(v.copies, 1);
  EXPECT_EQ(v.at[0], 15 * kMs);
}

TEST(Direction, SerialisesBackToBackFramesAtTheRate) {
  // 1250 bytes at 1 Mbit/s = 10 ms per frame.
  Direction d(spec("rate=1mbit delay=1ms"), 1);
  for (int i = 0; i < 5; ++i) {
    Verdict v = d.offer(1250, 0);
    ASSERT_EQ(v.copies, 1);
    EXPECT_EQ(v.at[0], (i + 1) * 10 * kMs + kMs) << "frame " << i;
  }
  // After the queue drained, a frame starts at its own arrival.
  Verdict v = d.offer(1250, 100 * kMs);
  EXPECT_EQ(v.at[0], 111 * kMs);
}

TEST(Direction, OverheadCountsTowardsTheRate) {
  Direction d(spec("rate=1mbit overhead=250"), 1);
  EXPECT_EQ(d.offer(1000, 0).at[0], 10 * kMs);  // (1000 + 250) * 8 bits at 1 Mbit/s
}

TEST(Direction, DropTailQueueInPackets) {
  Direction d(spec("rate=1mbit limit=3p"), 1);
  int forwarded = 0, full = 0;
  for (int i = 0; i < 10; ++i) {
    Verdict v = d.offer(1250, 0);
    forwarded += v.outcome == Outcome::forward;
    full += v.outcome == Outcome::queue_full;
  }
  EXPECT_EQ(forwarded, 3);
  EXPECT_EQ(full, 7);
  EXPECT_EQ(d.counters(0).dropped_queue, 7u);
  EXPECT_EQ(d.counters(0).queue_packets, 3u);
  // One frame finished serialising at 10 ms: room for exactly one more.
  EXPECT_EQ(d.offer(1250, 10 * kMs).outcome, Outcome::forward);
  EXPECT_EQ(d.offer(1250, 10 * kMs).outcome, Outcome::queue_full);
  EXPECT_EQ(d.counters(10 * kMs).queue_max_packets, 3u);
}

TEST(Direction, DropTailQueueInBytes) {
  Direction d(spec("rate=1mbit limit=0p limit_bytes=3000"), 1);
  EXPECT_EQ(d.offer(1000, 0).outcome, Outcome::forward);
  EXPECT_EQ(d.offer(1000, 0).outcome, Outcome::forward);
  EXPECT_EQ(d.offer(1001, 0).outcome, Outcome::queue_full);
  EXPECT_EQ(d.offer(1000, 0).outcome, Outcome::forward);
}

TEST(Direction, LostFramesStillUseTheLink) {
  Direction d(spec("rate=1mbit loss=pattern:1"), 1);
  EXPECT_EQ(d.offer(1250, 0).outcome, Outcome::lost);
  EXPECT_EQ(d.offer(1250, 0).at[0], 20 * kMs);  // behind the lost frame's 10 ms
  EXPECT_EQ(d.counters(0).dropped_loss, 1u);
}

TEST(Direction, JitterWithoutReorderingKeepsOrderAndBounds) {
  Direction d(spec("delay=10ms jitter=5ms"), 9);
  std::int64_t last = 0, lo = INT64_MAX, hi = 0;
  for (int i = 0; i < 10000; ++i) {
    std::int64_t now = i * kMs / 10;
    Verdict v = d.offer(100, now);
    EXPECT_GE(v.at[0], last);
    EXPECT_GE(v.at[0] - now, 5 * kMs);
    last = v.at[0];
    lo = std::min(lo, v.at[0] - now);
    hi = std::max(hi, v.at[0] - now);
  }
  EXPECT_LT(lo, 6 * kMs);  // the jitter really spreads the delay
  EXPECT_GT(hi, 14 * kMs);
}

TEST(Direction, JitterMayReorderWhenAsked) {
  Direction d(spec("delay=10ms jitter=5ms jitter_reorders=1"), 9);
  int inversions = 0;
  std::int64_t last = 0;
  for (int i = 0; i < 1000; ++i) {
    Verdict v = d.offer(100, i * kMs / 10);
    inversions += v.at[0] < last;
    last = v.at[0];
  }
  EXPECT_GT(inversions, 100);
}

TEST(Direction, ReorderSkipsTheDelayLine) {
  Direction d(spec("delay=10ms reorder=0.25"), 5);
  int skipped = 0;
  for (int i = 0; i < 10000; ++i) {
    Verdict v = d.offer(100, i * kMs);
    skipped += v.at[0] == i * kMs;
  }
  EXPECT_NEAR(skipped / 10000.0, 0.25, 0.02);
  EXPECT_EQ(d.counters(0).reordered, static_cast<std::uint64_t>(skipped));
}

TEST(Direction, DuplicatesAtTheConfiguredRate) {
  Direction d(spec("delay=1ms duplicate=0.1"), 5);
  int dups = 0;
  for (int i = 0; i < 20000; ++i) dups += d.offer(100, i * kMs).copies == 2;
  EXPECT_NEAR(dups / 20000.0, 0.1, 0.01);
}

TEST(Direction, NonIpFramesAreExemptFromLossByDefault) {
  Direction d(spec("loss=1"), 5);
  EXPECT_EQ(d.offer(60, 0, false).outcome, Outcome::forward);
  EXPECT_EQ(d.offer(60, 0, true).outcome, Outcome::lost);
  d.configure(spec("loss=1 loss_ip_only=0"));
  EXPECT_EQ(d.offer(60, 0, false).outcome, Outcome::lost);
}

TEST(Direction, RuntimeChangeKeepsTheQueue) {
  Direction d(spec("rate=1mbit"), 5);
  d.offer(1250, 0);
  d.configure(spec("rate=1mbit loss=0.5"));
  EXPECT_EQ(d.counters(0).queue_packets, 1u);
  int lost = 0;
  for (int i = 0; i < 1000; ++i) lost += d.offer(10, 0).outcome == Outcome::lost;
  EXPECT_GT(lost, 400);
  EXPECT_LT(lost, 600);
}

TEST(Direction, CountsInAndOut) {
  Direction d(spec("loss=pattern:2"), 5);
  d.offer(100, 0);
  d.offer(200, 0);
  d.on_sent(100, true);
  d.on_sent(50, false);
  const Counters& c = d.counters(0);
  EXPECT_EQ(c.frames_in, 2u);
  EXPECT_EQ(c.bytes_in, 300u);
  EXPECT_EQ(c.frames_out, 1u);
  EXPECT_EQ(c.bytes_out, 100u);
  EXPECT_EQ(c.dropped_loss, 1u);
  EXPECT_EQ(c.dropped_tx, 1u);
}

TEST(DelayLine, EarliestFirstThenArrivalOrder) {
  DelayLine l;
  l.push(30, 1, 0);
  l.push(10, 2, 0);
  l.push(10, 3, 0);
  l.push(20, 4, 0);
  std::vector<std::uint32_t> order;
  while (!l.empty()) {
    order.push_back(l.top().handle);
    l.pop();
  }
  EXPECT_EQ(order, (std::vector<std::uint32_t>{2, 3, 4, 1}));
}

}  // namespace
}  // namespace linkem
