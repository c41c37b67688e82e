// Checks that FUDP's per-packet path does not allocate: a full flow table under a flood of new
// 5-tuples (every packet evicts), a shaped UDP flow dropping in its bucket, and the periods'
// Algorithm 1 runs, all while a global operator new counts allocations.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "gateway/fudp/cfs.h"
#include "packets.h"

#include "tests/unit/common/alloc_counter.h"

namespace ncgw::fudp {
namespace {

TEST(FudpAlloc, PacketPathAndPeriodsDoNotAllocate) {
  Settings s;
  s.period_ms = 100;
  s.flow_table_size = 256;
  Cfs c(s, transport::time_from_ns(0));
  auto tcp = test::tcp4(1, 40000, 5201);
  auto udp = test::udp4(2, 40001, 5202);
  auto flood = test::udp4(3, 0, 9);
  std::uint64_t dropped = 0;
  auto run = [&](std::int64_t from_ms, std::int64_t to_ms) {
    for (std::int64_t ms = from_ms; ms < to_ms; ++ms) {
      const auto now = transport::time_from_ns(ms * 1'000'000);
      c.on_packet(tcp, now);
      for (int i = 0; i < 4; ++i) dropped += !c.on_packet(udp, now);
      flood[20] = static_cast<std::uint8_t>(ms >> 8);  // a new source port every ms
      flood[21] = static_cast<std::uint8_t>(ms);
      flood[15] = static_cast<std::uint8_t>(ms >> 16);
      c.on_packet(flood, now);
      if (ms % 100 == 99) c.on_period(transport::time_from_ns((ms + 1) * 1'000'000), 2e6);
    }
  };
  run(0, 1000);  // warm up: the table fills, the UDP flow gets shaped
  g_counting = true;
  run(1000, 20000);
  g_counting = false;
  EXPECT_GT(c.table().counters().evicted, 10000u);
  EXPECT_GT(dropped, 0u);
  EXPECT_EQ(g_allocations.load(), 0u);
}

}  // namespace
}  // namespace ncgw::fudp
