// The UDT tunnel's entrance queue bound: an IP packet is refused once its channel's oldest unsent
// packet has waited past the limit, a burst of kMinEntranceQueue packets is always taken, and
// `off` leaves the send buffer as the only bound (UDT4's behaviour).
#include <gtest/gtest.h>

#include <memory>

#include "tests/unit/udt/tunnel_link.h"

namespace ncgw::udt {
namespace {

using namespace std::chrono_literals;
using test::Link;
using test::stat;
using transport::SendResult;

// The i-th packet of the one inner flow these tests offer (1000 bytes, `i` readable by flow_and_seq).
std::vector<std::uint8_t> packet(std::uint32_t i) { return test::flow_packet(0, i, 1000); }

// A connected pair whose caller bounds its entrance queue at `entrance_queue_ms` and holds up to
// `send_buffer` packets (the receive buffers, and so the flow window, are 1024 packets).
std::unique_ptr<Link> connected_pair(int entrance_queue_ms, std::uint32_t send_buffer = 1024) {
  auto l = std::make_unique<Link>();
  auto s = test::settings(TunnelRole::caller, test::kB, 1);
  s.entrance_queue_ms = entrance_queue_ms;
  s.conn.send_buffer_packets = send_buffer;
  l->a = std::make_unique<UdtTunnelCore>(s);
  l->b = std::make_unique<UdtTunnelCore>(test::settings(TunnelRole::listener, test::kA, 2));
  const bool up = l->run_until([&] { return l->a->channels_connected() == 1 && l->b->channels_connected() == 1; }, 2s);
  EXPECT_TRUE(up);
  return l;
}

// Cuts the link, queues `n` packets at once (all taken: none has waited yet), then lets `wait` pass.
void stall_with_burst(Link& l, std::uint32_t n, transport::Duration wait) {
  l.cut = true;
  for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(l.a->send(packet(i), l.now), SendResult::accepted) << i;
  l.run_until([] { return false; }, wait);
}

TEST(UdtEntranceQueue, RefusesPacketsOnceTheOldestUnsentWaitedPastTheLimit) {
  auto l = connected_pair(30);
  stall_with_burst(*l, 200, 25ms);
  EXPECT_GE(l->a->connection()->unsent_packets(), kMinEntranceQueue);
  EXPECT_EQ(l->a->send(packet(1), l->now), SendResult::accepted);  // 25 ms < 30 ms
  l->run_until([] { return false; }, 10ms);
  EXPECT_EQ(l->a->send(packet(2), l->now), SendResult::buffer_full);
  EXPECT_EQ(stat(*l->a, "dropped_entrance_queue"), 1);
  EXPECT_EQ(stat(*l->a, "dropped_buffer_full"), 0);
}

TEST(UdtEntranceQueue, AlwaysTakesABurstOfTheFloor) {
  auto l = connected_pair(30);
  stall_with_burst(*l, 20, 1s);  // the head has waited far longer than 30 ms
  const Connection& c = *l->a->connection();
  ASSERT_LT(c.unsent_packets(), kMinEntranceQueue);
  std::uint32_t taken = 0;
  while (l->a->send(packet(taken), l->now) == SendResult::accepted) ++taken;
  EXPECT_EQ(c.unsent_packets(), kMinEntranceQueue);
  EXPECT_GT(taken, 0u);
  EXPECT_EQ(stat(*l->a, "dropped_entrance_queue"), 1);
}

TEST(UdtEntranceQueue, OffLeavesOnlyTheSendBuffer) {
  auto l = connected_pair(0);
  stall_with_burst(*l, 200, 1s);
  std::uint32_t taken = 0;
  while (l->a->send(packet(taken), l->now) == SendResult::accepted) ++taken;
  EXPECT_EQ(l->a->connection()->send_room(), 0u);  // refused only when the buffer is full
  EXPECT_EQ(stat(*l->a, "dropped_entrance_queue"), 0);
  EXPECT_EQ(stat(*l->a, "dropped_buffer_full"), 1);
}

// auto: half the smallest smoothed RTT plus 10 ms. The link's RTT is 10 ms, so 15 ms once the RTT
// estimate has settled (it starts at UDT's 100 ms and converges as ACKs arrive). After the first
// transfer the sender's window is the flow window, so the stall's burst is larger than that: the
// packets beyond it wait unsent.
TEST(UdtEntranceQueue, AutomaticLimitIsHalfTheMinRttPlusTenMs) {
  auto l = connected_pair(-1, 4096);
  std::uint32_t sent = 0, got = 0;
  std::vector<std::uint8_t> buf(2048);
  l->run_until([&] {
    while (sent < 5000 && l->a->send(packet(sent), l->now) == SendResult::accepted) ++sent;
    while (l->b->poll_deliver(buf)) ++got;
    return got == 5000;
  }, 30s);
  ASSERT_EQ(got, 5000u);
  l->run_until([] { return false; }, 3s);
  EXPECT_NEAR(stat(*l->a, "min_rtt_ms"), 10, 1.5);
  stall_with_burst(*l, 1024 + 200, 12ms);
  ASSERT_GE(l->a->connection()->unsent_packets(), kMinEntranceQueue);
  EXPECT_EQ(l->a->send(packet(1), l->now), SendResult::accepted);
  l->run_until([] { return false; }, 6ms);
  EXPECT_EQ(l->a->send(packet(2), l->now), SendResult::buffer_full);
}

// Everything the entrance took arrives once and in order when the offered load exceeds what the
// tunnel carries; the rest is counted as refused at the entrance.
TEST(UdtEntranceQueue, WhatItTakesIsDeliveredInOrder) {
  auto l = connected_pair(-1);
  int data = 0;
  l->drop_ab = [&](const std::vector<std::uint8_t>& d) { return (d[0] & 0x80) == 0 && ++data % 40 == 0; };
  std::uint32_t offered = 0, got = 0;
  bool order = true;
  std::vector<std::uint8_t> buf(2048);
  std::vector<std::uint32_t> accepted_ids;
  for (int ms = 0; ms < 3000; ++ms) {  // 20 packets per ms: 160 Mbit/s offered
    for (int k = 0; k < 20; ++k, ++offered) {
      if (l->a->send(packet(offered), l->now) == SendResult::accepted) accepted_ids.push_back(offered);
    }
    l->run_until([&] {
      while (auto n = l->b->poll_deliver(buf)) {
        order &= got < accepted_ids.size() && accepted_ids[got] == test::flow_and_seq(buf).second && *n == 1000;
        ++got;
      }
      return false;
    }, 1ms);
  }
  const auto accepted = static_cast<std::uint32_t>(accepted_ids.size());
  l->run_until([&] {
    while (l->b->poll_deliver(buf)) {
      order &= got < accepted_ids.size() && accepted_ids[got] == test::flow_and_seq(buf).second;
      ++got;
    }
    return got == accepted;
  }, 10s);
  EXPECT_EQ(got, accepted);
  EXPECT_TRUE(order);
  EXPECT_GT(stat(*l->a, "dropped_entrance_queue"), 0);
  EXPECT_EQ(stat(*l->a, "dropped_entrance_queue") + accepted, offered);
}

}  // namespace
}  // namespace ncgw::udt
