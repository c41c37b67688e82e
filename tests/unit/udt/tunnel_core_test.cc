// UdtTunnelCore through an in-memory link: IP packets in order both ways, peer restarts.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <memory>

#include "tests/unit/udt/tunnel_link.h"

namespace ncgw::udt {
namespace {

using namespace std::chrono_literals;
using test::kA;
using test::kB;
using test::Link;
using test::settings;
using transport::TimePoint;

std::vector<std::uint8_t> ip_packet(std::uint32_t i, std::size_t len) {
  std::vector<std::uint8_t> p(len, static_cast<std::uint8_t>(i * 7));
  p[0] = 0x45;
  p[1] = static_cast<std::uint8_t>(i >> 16);
  p[2] = static_cast<std::uint8_t>(i >> 8);
  p[3] = static_cast<std::uint8_t>(i);
  return p;
}

std::uint32_t packet_index(const std::vector<std::uint8_t>& p) {
  return (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

bool connected(const UdtTunnelCore& c) { return c.connection() && c.connection()->connected(); }

TEST(UdtTunnelCore, CarriesPacketsInOrderBothWays) {
  Link l;
  l.a = std::make_unique<UdtTunnelCore>(settings(TunnelRole::caller, kB, 1));
  l.b = std::make_unique<UdtTunnelCore>(settings(TunnelRole::listener, kA, 2));
  EXPECT_EQ(l.a->send(ip_packet(0, 100), l.now), transport::SendResult::not_connected);
  ASSERT_TRUE(l.run_until([&] { return connected(*l.a) && connected(*l.b); }, 2s));
  EXPECT_EQ(l.a->max_payload(), 1456u);
  EXPECT_EQ(l.a->send(std::vector<std::uint8_t>(1457, 0), l.now), transport::SendResult::too_big);
  std::uint32_t sent = 0, got_a = 0, got_b = 0;
  bool order = true;
  std::vector<std::uint8_t> buf(2048);
  l.run_until([&] {
    while (sent < 5000 && l.a->send(ip_packet(sent, 40 + sent % 1400), l.now) == transport::SendResult::accepted &&
           l.b->send(ip_packet(sent, 60 + sent % 1300), l.now) == transport::SendResult::accepted) ++sent;
    while (auto n = l.b->poll_deliver(buf)) {
      order &= packet_index(std::vector<std::uint8_t>(buf.begin(), buf.begin() + 4)) == got_b++ && *n == 40 + (got_b - 1) % 1400;
    }
    while (auto n = l.a->poll_deliver(buf)) {
      order &= packet_index(std::vector<std::uint8_t>(buf.begin(), buf.begin() + 4)) == got_a++ && *n == 60 + (got_a - 1) % 1300;
    }
    return got_a == 5000 && got_b == 5000;
  }, 30s);
  EXPECT_EQ(got_a, 5000u);
  EXPECT_EQ(got_b, 5000u);
  EXPECT_TRUE(order);
  bool has_rtt = false;
  for (const auto& e : l.a->stats()) has_rtt |= e.name == "rtt_ms" && e.value > 9 && e.value < 30;
  EXPECT_TRUE(has_rtt);
}

// The handshake takes the smaller MSS of the two sides: the side configured larger then carries (and
// reports in max_payload, which a Packet Too Big quotes) the smaller payload, and refuses more.
TEST(UdtTunnelCore, MaxPayloadFollowsTheNegotiatedMss) {
  Link l;
  auto big = settings(TunnelRole::caller, kB, 1);
  auto small = settings(TunnelRole::listener, kA, 2);
  small.conn.mss = 1400;
  l.a = std::make_unique<UdtTunnelCore>(big);
  l.b = std::make_unique<UdtTunnelCore>(small);
  EXPECT_EQ(l.a->max_payload(), 1456u);   // before the handshake: its own MSS
  ASSERT_TRUE(l.run_until([&] { return connected(*l.a) && connected(*l.b); }, 2s));
  EXPECT_EQ(l.a->max_payload(), 1356u);
  EXPECT_EQ(l.b->max_payload(), 1356u);
  EXPECT_EQ(l.a->send(std::vector<std::uint8_t>(1357, 0x45), l.now), transport::SendResult::too_big);
  EXPECT_EQ(l.a->send(ip_packet(1, 1356), l.now), transport::SendResult::accepted);
}

// `ncgw status` shows the core's stats: the UDT fields an operator needs are there, with values from
// a lossy transfer (every 50th data packet a -> b is lost).
TEST(UdtTunnelCore, StatsCarryTheUdtFields) {
  Link l;
  l.a = std::make_unique<UdtTunnelCore>(settings(TunnelRole::caller, kB, 1));
  l.b = std::make_unique<UdtTunnelCore>(settings(TunnelRole::listener, kA, 2));
  int data = 0;
  l.drop_ab = [&](const std::vector<std::uint8_t>& d) { return (d[0] & 0x80) == 0 && ++data % 50 == 0; };
  ASSERT_TRUE(l.run_until([&] { return connected(*l.a) && connected(*l.b); }, 2s));
  std::uint32_t sent = 0, got = 0;
  std::vector<std::uint8_t> buf(2048);
  l.run_until([&] {
    while (sent < 3000 && l.a->send(ip_packet(sent, 1400), l.now) == transport::SendResult::accepted) ++sent;
    while (l.b->poll_deliver(buf)) ++got;
    return got == 3000;
  }, 30s);
  ASSERT_EQ(got, 3000u);
  std::map<std::string, double> a, b;
  for (const auto& e : l.a->stats()) a[e.name] = e.value;
  for (const auto& e : l.b->stats()) b[e.name] = e.value;
  const Connection& ca = *l.a->connection();
  EXPECT_DOUBLE_EQ(a.at("sending_period_us"), ca.stats().period_us);   // totals() combines channel rates
  EXPECT_GT(a.at("sending_period_us"), 0);
  EXPECT_EQ(a.at("congestion_window_packets"), ca.stats().cwnd);
  EXPECT_GT(a.at("flow_window_packets"), 0);
  EXPECT_NEAR(a.at("rtt_ms"), 10, 5);
  EXPECT_GT(a.at("estimated_capacity_mbps"), 0);
  EXPECT_GT(a.at("packets_retransmitted"), 0);
  EXPECT_GE(a.at("packets_retransmitted"), a.at("sender_loss_packets"));
  EXPECT_GT(a.at("sender_loss_packets"), 0);
  EXPECT_GT(b.at("receiver_loss_packets"), 0);
  EXPECT_EQ(a.at("connected"), 1);
}

TEST(UdtTunnelCore, ListenerFollowsARestartedCaller) {
  Link l;
  l.a = std::make_unique<UdtTunnelCore>(settings(TunnelRole::caller, kB, 1));
  l.b = std::make_unique<UdtTunnelCore>(settings(TunnelRole::listener, kA, 2));
  ASSERT_TRUE(l.run_until([&] { return connected(*l.a) && connected(*l.b); }, 2s));
  const auto old_id = l.b->connection()->peer_id();
  l.a = std::make_unique<UdtTunnelCore>(settings(TunnelRole::caller, kB, 3));  // the peer restarts
  ASSERT_TRUE(l.run_until([&] { return connected(*l.a) && l.b->connection()->peer_id() != old_id; }, 3s));
  std::vector<std::uint8_t> buf(2048);
  ASSERT_EQ(l.a->send(ip_packet(9, 500), l.now), transport::SendResult::accepted);
  std::optional<std::size_t> n;
  ASSERT_TRUE(l.run_until([&] { return (n = l.b->poll_deliver(buf)).has_value(); }, 1s));
  EXPECT_EQ(*n, 500u);
}

TEST(UdtTunnelCore, CallerReconnectsAfterListenerRestart) {
  Link l;
  l.a = std::make_unique<UdtTunnelCore>(settings(TunnelRole::caller, kB, 1));
  l.b = std::make_unique<UdtTunnelCore>(settings(TunnelRole::listener, kA, 2));
  ASSERT_TRUE(l.run_until([&] { return connected(*l.a) && connected(*l.b); }, 2s));
  l.b = std::make_unique<UdtTunnelCore>(settings(TunnelRole::listener, kA, 4));
  // the caller notices after the 10 s silence limit, then connects again
  ASSERT_TRUE(l.run_until([&] { return l.a->sessions() == 2 && connected(*l.b); }, 20s));
}

TEST(UdtTunnelCore, RendezvousPair) {
  Link l;
  l.a = std::make_unique<UdtTunnelCore>(settings(TunnelRole::rendezvous, kB, 1));
  l.b = std::make_unique<UdtTunnelCore>(settings(TunnelRole::rendezvous, kA, 2));
  ASSERT_TRUE(l.run_until([&] { return connected(*l.a) && connected(*l.b); }, 2s));
}

}  // namespace
}  // namespace ncgw::udt
