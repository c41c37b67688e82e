// The entrance queue's two lanes: a flow with nothing waiting passes the bulk lane, order within a
// flow is kept, the sparse lane is bounded, and packets without a flow key or with the priority
// off queue in one FIFO.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/fudp/packets.h"
#include "transports/tcpnc/entrance_lanes.h"

namespace ncgw::tcpnc {
namespace {

using Lane = EntranceLanes::Lane;
using Packet = std::vector<std::uint8_t>;

// A TCP/IPv4 packet of flow `flow` whose last byte numbers it within the test.
Packet tcp(std::uint8_t flow, std::uint8_t mark) {
  Packet p = fudp::test::tcp4(flow, 40000, 443, 100);
  p.back() = mark;
  return p;
}

// Pushes `p` where the queue places it; returns its lane.
Lane offer(EntranceLanes& q, const Packet& p) {
  const EntranceLanes::Placement where = q.place(p);
  EXPECT_TRUE(q.push(p, {}, where));
  return where.lane;
}

// The marks of every packet in serving order (empties the queue).
std::vector<int> drain(EntranceLanes& q) {
  std::vector<int> marks;
  while (!q.empty()) {
    marks.push_back(q.front().back());
    q.pop();
  }
  return marks;
}

TEST(EntranceLanes, ALightFlowPassesABulkFlowAndOrderWithinEachFlowIsKept) {
  EntranceLanes q(100, 200, true);
  EXPECT_EQ(offer(q, tcp(1, 1)), Lane::sparse);  // bulk flow: its first packet found nothing waiting
  for (std::uint8_t i = 2; i <= 5; ++i) EXPECT_EQ(offer(q, tcp(1, i)), Lane::bulk);
  EXPECT_EQ(offer(q, tcp(2, 50)), Lane::sparse);  // a ping-like packet of another flow
  EXPECT_EQ(offer(q, tcp(2, 51)), Lane::bulk);    // that flow's next one waits behind its first
  EXPECT_EQ(drain(q), (std::vector<int>{1, 50, 2, 3, 4, 5, 51}));
}

TEST(EntranceLanes, AFlowIsSparseAgainOnceItsPacketsAreServed) {
  EntranceLanes q(100, 200, true);
  offer(q, tcp(1, 1));
  offer(q, tcp(1, 2));
  drain(q);
  EXPECT_EQ(offer(q, tcp(1, 3)), Lane::sparse);
}

TEST(EntranceLanes, TheAqmDropsOnlyFromTheBulkLaneAndReleasesTheFlow) {
  EntranceLanes q(100, 200, true);
  offer(q, tcp(1, 1));
  offer(q, tcp(1, 2));
  offer(q, tcp(2, 9));
  EXPECT_EQ(q.bulk_size(), 1u);
  q.pop_bulk();  // flow 1's second packet
  EXPECT_EQ(q.bulk_size(), 0u);
  EXPECT_EQ(drain(q), (std::vector<int>{1, 9}));
  EXPECT_EQ(offer(q, tcp(1, 3)), Lane::sparse);
}

TEST(EntranceLanes, TheSparseLaneIsBounded) {
  EntranceLanes q(1000, 200, true);
  std::size_t sparse = 0;  // flows that share a hash bucket go to the bulk lane: count, do not assume
  for (std::uint8_t f = 0; f < 200; ++f) {
    const Packet p = tcp(f, 0);
    if (sparse == kSparseLanePackets) EXPECT_EQ(q.place(p).lane, Lane::bulk) << int(f);
    sparse += offer(q, p) == Lane::sparse;
  }
  EXPECT_EQ(sparse, kSparseLanePackets);
}

TEST(EntranceLanes, PacketsWithoutAFlowKeyAndPriorityOffQueueInOneFifo) {
  EntranceLanes q(100, 200, true);
  const Packet garbage(60, 0xEE);
  EXPECT_EQ(q.place(garbage).lane, Lane::bulk);
  EntranceLanes fifo(100, 200, false);
  EXPECT_EQ(offer(fifo, tcp(1, 1)), Lane::bulk);
  EXPECT_EQ(offer(fifo, tcp(1, 2)), Lane::bulk);
  EXPECT_EQ(offer(fifo, tcp(2, 3)), Lane::bulk);
  EXPECT_EQ(drain(fifo), (std::vector<int>{1, 2, 3}));
}

TEST(EntranceLanes, ClearForgetsEveryWaitingCount) {
  EntranceLanes q(100, 200, true);
  offer(q, tcp(1, 1));
  offer(q, tcp(1, 2));
  q.clear();
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(offer(q, tcp(1, 3)), Lane::sparse);
}

}  // namespace
}  // namespace ncgw::tcpnc
