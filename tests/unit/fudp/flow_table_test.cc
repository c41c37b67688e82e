// The bounded flow table: a flood of distinct 5-tuples never grows it past its capacity, the
// least recently seen flow is evicted first and counted, idle flows expire.
#include <gtest/gtest.h>

#include <cmath>

#include "gateway/fudp/flow_table.h"

namespace ncgw::fudp {
namespace {

using transport::time_from_ns;

FlowKey key(std::uint32_t i) {
  FlowKey k;
  k.protocol = 17;
  k.src[0] = 10;
  k.src[1] = static_cast<std::uint8_t>(i >> 16);
  k.src[2] = static_cast<std::uint8_t>(i >> 8);
  k.src[3] = static_cast<std::uint8_t>(i);
  k.dst[0] = 10;
  k.src_port = static_cast<std::uint16_t>(i * 7);
  k.dst_port = 5201;
  return k;
}

TEST(FlowTable, FloodOfDistinctTuplesStaysBounded) {
  FlowTable t(64);
  const FlowKey keep = key(999999);
  for (std::uint32_t i = 0; i < 100000; ++i) {
    t.touch(key(i), time_from_ns(i * 1000));
    if (i % 10 == 0) t.touch(keep, time_from_ns(i * 1000));  // a busy flow survives the flood
    ASSERT_LE(t.size(), 64u);
  }
  EXPECT_EQ(t.size(), 64u);
  EXPECT_EQ(t.capacity(), 64u);
  EXPECT_EQ(t.counters().inserted, 100001u);
  EXPECT_EQ(t.counters().evicted, 100001u - 64u);
  EXPECT_NE(t.find(keep), nullptr);
  EXPECT_NE(t.find(key(99999)), nullptr);
  EXPECT_EQ(t.find(key(0)), nullptr);
}

TEST(FlowTable, EvictsLeastRecentlySeen) {
  FlowTable t(3);
  t.touch(key(1), time_from_ns(1));
  t.touch(key(2), time_from_ns(2));
  t.touch(key(3), time_from_ns(3));
  t.touch(key(1), time_from_ns(4));  // 2 is now the oldest idle
  t.touch(key(4), time_from_ns(5));
  EXPECT_EQ(t.find(key(2)), nullptr);
  EXPECT_NE(t.find(key(1)), nullptr);
  EXPECT_NE(t.find(key(3)), nullptr);
  EXPECT_EQ(t.counters().evicted, 1u);
  std::vector<std::uint16_t> order;
  t.for_each([&](const Flow& f) { order.push_back(f.key.src[3]); });
  EXPECT_EQ(order, (std::vector<std::uint16_t>{4, 1, 3}));
}

TEST(FlowTable, ExpiresIdleFlowsAndReusesSlots) {
  FlowTable t(8);
  for (std::uint32_t i = 0; i < 8; ++i) t.touch(key(i), time_from_ns(i * 1'000'000'000LL));
  // At 10 s with a 5 s timeout, flows last seen at 0..5 s go (6 and 7 stay).
  EXPECT_EQ(t.expire(time_from_ns(10'000'000'000LL), std::chrono::seconds(5)), 6u);
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.counters().expired, 6u);
  for (std::uint32_t i = 100; i < 106; ++i) t.touch(key(i), time_from_ns(11'000'000'000LL));
  EXPECT_EQ(t.size(), 8u);
  EXPECT_EQ(t.counters().evicted, 0u);
}

TEST(FlowTable, NewFlowStartsClean) {
  FlowTable t(1);
  Flow& a = t.touch(key(1), time_from_ns(5));
  a.bytes = 77;
  a.allocation_Bps = 10;
  Flow& b = t.touch(key(2), time_from_ns(6));  // evicts 1 and reuses its slot
  EXPECT_EQ(b.bytes, 0u);
  EXPECT_FALSE(std::isfinite(b.allocation_Bps));
  EXPECT_EQ(b.first_seen, time_from_ns(6));
}

}  // namespace
}  // namespace ncgw::fudp
