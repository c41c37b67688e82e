// ChannelMap: flows spread over the active channel slots, a new slot takes about 1/n of them, and
// a flow moves only once its old channel has acknowledged everything it queued there.
#include <gtest/gtest.h>

#include <array>
#include <optional>

#include "tests/unit/udt/tunnel_link.h"
#include "transports/udt/channel_map.h"

namespace ncgw::udt {
namespace {

// Every slot alive, with `n` packets acknowledged.
auto acked_all(std::uint64_t n) {
  return [n](int) { return std::optional<std::uint64_t>(n); };
}

TEST(ChannelMap, SpreadsBucketsOverTheActiveSlots) {
  ChannelMap m;
  m.set_active(0b1111);
  std::array<int, 4> per_slot{};
  for (std::size_t b = 0; b < ChannelMap::kBuckets; ++b) {
    const int s = m.route(b, acked_all(0));
    ASSERT_GE(s, 0);
    ASSERT_LT(s, 4);
    ++per_slot[static_cast<std::size_t>(s)];
  }
  for (int n : per_slot) {
    EXPECT_GT(n, 32);  // 64 each on average
    EXPECT_LT(n, 96);
  }
  EXPECT_EQ(m.moves(), 0u);  // first placement is not a move
}

TEST(ChannelMap, ANewSlotTakesAboutOneNthAndNothingElseMoves) {
  ChannelMap m;
  m.set_active(0b1111);
  std::array<int, ChannelMap::kBuckets> before{};
  for (std::size_t b = 0; b < ChannelMap::kBuckets; ++b) before[b] = m.route(b, acked_all(0));
  m.set_active(0b11111);
  int moved = 0;
  for (std::size_t b = 0; b < ChannelMap::kBuckets; ++b) {
    const int s = m.route(b, acked_all(0));
    if (s == before[b]) continue;
    EXPECT_EQ(s, 4);
    ++moved;
  }
  EXPECT_GT(moved, 25);  // 51 on average
  EXPECT_LT(moved, 80);
  EXPECT_EQ(m.moves(), static_cast<std::uint64_t>(moved));
}

TEST(ChannelMap, AFlowMovesOnlyWhenItsOldChannelAcknowledgedIt) {
  ChannelMap m;
  m.set_active(0b01);
  const std::size_t b = 7;
  ASSERT_EQ(m.route(b, acked_all(0)), 0);
  m.queued(b, 10);  // slot 0 has queued 10 packets, the last one this bucket's
  m.set_active(0b10);
  EXPECT_EQ(m.route(b, acked_all(9)), 0);   // one still unacknowledged: stay
  EXPECT_EQ(m.settle(acked_all(9)), 1u);  // the others (never used) go straight to slot 1
  EXPECT_EQ(m.slot_of(b), 0);
  EXPECT_EQ(m.route(b, acked_all(10)), 1);  // all acknowledged: move
  EXPECT_EQ(m.slot_of(b), 1);
}

TEST(ChannelMap, AFlowLeavesAChannelThatIsGoneAtOnce) {
  ChannelMap m;
  m.set_active(0b01);
  ASSERT_EQ(m.route(3, acked_all(0)), 0);
  m.queued(3, 50);
  m.set_active(0b10);
  const int s = m.route(3, [](int slot) { return slot == 0 ? std::nullopt : std::optional<std::uint64_t>(0); });
  EXPECT_EQ(s, 1);
}

TEST(ChannelMap, SettleMovesIdleFlowsOffARetiredSlot) {
  ChannelMap m;
  m.set_active(0b11);
  for (std::size_t b = 0; b < ChannelMap::kBuckets; ++b) m.queued(b, m.route(b, acked_all(0)) == 1 ? 5 : 0);
  ASSERT_TRUE(m.in_use(1));
  m.set_active(0b01);
  EXPECT_GT(m.settle(acked_all(4)), 0u);  // slot 1's buckets wait for their 5th packet
  EXPECT_TRUE(m.in_use(1));
  EXPECT_EQ(m.settle(acked_all(5)), 0u);
  EXPECT_FALSE(m.in_use(1));
}

TEST(ChannelMap, OneFlowOneBucketAndMalformedPacketsShareBucketZero) {
  const auto a1 = test::flow_packet(3, 1, 100), a2 = test::flow_packet(3, 99, 700), b = test::flow_packet(4, 1, 100);
  EXPECT_EQ(ChannelMap::bucket_of(a1), ChannelMap::bucket_of(a2));
  std::size_t differ = 0;
  for (std::uint16_t f = 0; f < 16; ++f) differ += ChannelMap::bucket_of(test::flow_packet(f, 0, 64)) != ChannelMap::bucket_of(b);
  EXPECT_GT(differ, 10u);
  const std::uint8_t junk[3] = {0x99, 1, 2};
  EXPECT_EQ(ChannelMap::bucket_of(junk), 0u);
}

}  // namespace
}  // namespace ncgw::udt
