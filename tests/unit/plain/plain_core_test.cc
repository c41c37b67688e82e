// The plain core end to end between two instances, with drops counted by reason.
#include <gtest/gtest.h>

#include <array>
#include <string>
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
  EXPECT_EQ(*next, time_from_ns(0) + std::chrono::seconds(1));
  a.on_timeout(*next - std::chrono::milliseconds(1));  // early: nothing due
  EXPECT_EQ(pump(a, b), 0);
}

// The value of stat `name` in core.stats(); -1 if absent.
double stat(const PlainCore& core, const std::string& name) {
  for (const auto& e : core.stats()) {
    if (e.name == name) return e.value;
  }
  return -1;
}

TEST(PlainCore, ReceiverCountsDatagramsLostOnTheWire) {
  PlainCore a(settings(7)), b(settings(7));
  std::vector<std::uint8_t> pkt(100, 1);
  std::array<std::uint8_t, 2000> wire{};
  for (int i = 0; i < 6; ++i) {
    a.send(pkt, time_from_ns(0));
    const auto len = a.poll_transmit(wire, time_from_ns(0));
    ASSERT_TRUE(len);
    if (i == 1 || i == 3) continue;  // the link loses the 2nd and 4th datagram
    b.on_datagram(std::span(wire).first(*len), time_from_ns(0));
  }
  EXPECT_EQ(b.counters().rx_packets, 4u);
  EXPECT_EQ(b.seq_counters().lost(), 2u);
  EXPECT_EQ(stat(b, "rx_lost"), 2);
  EXPECT_EQ(stat(a, "rx_lost"), 0);
}

TEST(PlainCore, CountsDataSentWhileThePeerIsSilent) {
  PlainCoreSettings s = settings(7);
  s.peer_silence_timeout = std::chrono::seconds(3);
  PlainCore a(s), b(s);
  std::vector<std::uint8_t> pkt(100, 1);
  std::array<std::uint8_t, 2000> wire{};
  auto send_at = [&](int ms) {
    a.send(pkt, time_from_ns(ms * 1'000'000LL));
    return a.poll_transmit(wire, time_from_ns(ms * 1'000'000LL));
  };
  ASSERT_TRUE(send_at(0));
  ASSERT_TRUE(send_at(3000));     // exactly the timeout: not yet silent
  EXPECT_EQ(a.counters().tx_while_peer_silent, 0u);
  ASSERT_TRUE(send_at(3001));
  ASSERT_TRUE(send_at(3500));
  EXPECT_EQ(a.counters().tx_while_peer_silent, 2u);
  b.on_timeout(time_from_ns(0));  // b announces itself; a hears it at 3.6 s
  const auto len = b.poll_transmit(wire, time_from_ns(0));
  ASSERT_TRUE(len);
  a.on_datagram(std::span(wire).first(*len), time_from_ns(3'600'000'000LL));
  ASSERT_TRUE(send_at(4000));
  EXPECT_EQ(a.counters().tx_while_peer_silent, 2u);
  EXPECT_EQ(stat(a, "tx_while_peer_silent"), 2);
}

}  // namespace
}  // namespace ncgw::plain
