// The plain core end to end between two instances, with drops counted by reason.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "transports/plain/plain_core.h"

namespace ncgw::plain {
namespace {

using transport::SendResult;
using transport::time_from_ns;

PlainCoreSettings settings(std::uint32_t session, std::size_t queue = 8) {
  PlainCoreSettings s;
  s.session_id = session;
  s.max_datagram = 1472;
  s.send_queue_packets = queue;
  s.deliver_queue_packets = queue;
  return s;
}

// Moves every pending datagram from `a` to `b`; returns how many.
int pump(PlainCore& a, PlainCore& b) {
  std::array<std::uint8_t, 2000> wire{};
  int n = 0;
  while (auto len = a.poll_transmit(wire, time_from_ns(0))) {
    b.on_datagram(std::span(wire).first(*len), time_from_ns(0));
    ++n;
  }
  return n;
}

TEST(PlainCore, CarriesPacketsInOrderBetweenTwoCores) {
  PlainCore a(settings(42)), b(settings(42));
  for (std::uint8_t i = 1; i <= 5; ++i) {
    std::vector<std::uint8_t> pkt(i * 100, i);
    ASSERT_EQ(a.send(pkt, time_from_ns(0)), SendResult::accepted);
  }
  EXPECT_GE(pump(a, b), 5);
  std::array<std::uint8_t, 2000> out{};
  for (std::uint8_t i = 1; i <= 5; ++i) {
    auto n = b.poll_deliver(out);
    ASSERT_TRUE(n);
    EXPECT_EQ(*n, i * 100u);
    EXPECT_EQ(out[0], i);
  }
  EXPECT_FALSE(b.poll_deliver(out));
  EXPECT_EQ(b.counters().rx_packets, 5u);
}

TEST(PlainCore, CountsEntranceDropsAndTooBig) {
  PlainCore a(settings(1, 2));
  std::vector<std::uint8_t> pkt(100, 1), huge(1461, 1);
  EXPECT_EQ(a.max_payload(), 1460u);
  EXPECT_EQ(a.send(huge, time_from_ns(0)), SendResult::too_big);
  EXPECT_EQ(a.send(pkt, time_from_ns(0)), SendResult::accepted);
  EXPECT_EQ(a.send(pkt, time_from_ns(0)), SendResult::accepted);
  EXPECT_EQ(a.send(pkt, time_from_ns(0)), SendResult::buffer_full);
  EXPECT_EQ(a.counters().drop_too_big, 1u);
  EXPECT_EQ(a.counters().drop_entrance_full, 1u);
}

TEST(PlainCore, DropsOtherSessionsAndGarbage) {
  PlainCore a(settings(1)), b(settings(2));
  std::vector<std::uint8_t> pkt(100, 1);
  a.send(pkt, time_from_ns(0));
  pump(a, b);
  std::array<std::uint8_t, 2000> out{};
  EXPECT_FALSE(b.poll_deliver(out));
  EXPECT_EQ(b.counters().drop_bad_session, 1u);
  const std::vector<std::uint8_t> garbage{1, 2, 3};
  b.on_datagram(garbage, time_from_ns(0));
  EXPECT_EQ(b.counters().drop_malformed, 1u);
}

TEST(PlainCore, SendsKeepaliveWhenIdle) {
  PlainCore a(settings(1)), b(settings(1));
  // A fresh core announces itself at once, then every keepalive_interval of silence.
  ASSERT_TRUE(a.next_deadline());
  a.on_timeout(*a.next_deadline());
  EXPECT_EQ(pump(a, b), 1);
  EXPECT_EQ(b.counters().keepalives_received, 1u);
  const auto next = a.next_deadline();
  ASSERT_TRUE(next);
  EXPECT_EQ(*next, time_from_ns(0) + std::chrono::seconds(5));
  a.on_timeout(*next - std::chrono::milliseconds(1));  // early: nothing due
  EXPECT_EQ(pump(a, b), 0);
}

}  // namespace
}  // namespace ncgw::plain
