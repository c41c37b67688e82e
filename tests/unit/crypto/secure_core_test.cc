// The secure layer around a transport core: authenticate first, then the transport parses.
#include <gtest/gtest.h>

#include <set>

#include "core_pair.h"

namespace ncgw::crypto {
namespace {

using namespace std::chrono_literals;
using test::CorePair;
using test::ip_packet;

const plain::PlainCore& inner_plain(const SecureCore& c) { return static_cast<const plain::PlainCore&>(c.inner()); }

TEST(SecureCore, CarriesPacketsAfterHandshake) {
  CorePair p;
  p.step();
  p.now += 1ms;
  p.step();
  const auto pkt = ip_packet(1000, 1);
  for (int i = 0; i < 50; ++i) {
    ASSERT_EQ(p.a->send(pkt, p.now), transport::SendResult::accepted);
    p.step();
  }
  EXPECT_EQ(p.delivered_b, 50u);
  EXPECT_EQ(p.b->session().counters().drop_bad_tag, 0u);
}

TEST(SecureCore, MaxPayloadBudgetsRecordOverhead) {
  CorePair p;
  EXPECT_EQ(p.a->max_payload() + wire::kRecordOverhead + plain::kHeaderSize, 1472u);
  const auto full = ip_packet(p.a->max_payload(), 2);
  p.step();
  p.now += 1ms;
  p.step();
  ASSERT_EQ(p.a->send(full, p.now), transport::SendResult::accepted);
  std::size_t biggest = 0;
  p.tap_ab = [&](std::span<const std::uint8_t> d) {
    biggest = std::max(biggest, d.size());
    return true;
  };
  p.step();
  EXPECT_EQ(p.delivered_b, 1u);
  EXPECT_EQ(biggest, 1472u);
}

TEST(SecureCore, ForgedAndReplayedDatagramsNeverReachTheTransport) {
  CorePair p;
  p.step();
  p.now += 1ms;
  p.step();
  std::vector<std::vector<std::uint8_t>> seen;
  p.tap_ab = [&](std::span<const std::uint8_t> d) {
    seen.emplace_back(d.begin(), d.end());
    return true;
  };
  ASSERT_EQ(p.a->send(ip_packet(200, 3), p.now), transport::SendResult::accepted);
  p.step();
  ASSERT_EQ(p.delivered_b, 1u);
  const auto plain_before = inner_plain(*p.b).counters();
  for (const auto& d : seen) p.b->on_datagram(d, p.now);                 // replay
  auto forged = seen.back();
  forged[wire::kOffDataCounter + 5] ^= 0x40;   // a counter never used: passes the window, fails the tag
  p.b->on_datagram(forged, p.now);                                        // bad tag
  std::vector<std::uint8_t> plain_datagram(64, 0);                        // a plain header in clear
  p.b->on_datagram(plain_datagram, p.now);
  p.step();
  EXPECT_EQ(p.delivered_b, 1u);
  const auto& after = inner_plain(*p.b).counters();
  EXPECT_EQ(after.drop_malformed, plain_before.drop_malformed);
  EXPECT_EQ(after.rx_packets, plain_before.rx_packets);
  const auto& c = p.b->session().counters();
  EXPECT_GE(c.drop_replay, 1u);
  EXPECT_EQ(c.drop_bad_tag, 1u);
  EXPECT_EQ(c.drop_malformed, 1u);
}

TEST(SecureCore, StatsNameEveryDropReason) {
  CorePair p;
  p.step();
  std::set<std::string> names;
  for (const auto& e : p.a->stats()) names.insert(e.name);
  for (const char* n : {"sec_drop_bad_tag", "sec_drop_replay", "sec_drop_unknown_key", "sec_drop_cookie_needed",
                        "sec_handshake_age_s", "sec_key_epoch", "rx_packets"}) {
    EXPECT_TRUE(names.count(n)) << n;
  }
}

TEST(SecureCore, NoDatagramLeavesInClearBeforeTheHandshake) {
  CorePair p;
  p.tap_ab = [](std::span<const std::uint8_t> d) {
    EXPECT_TRUE(d[0] >= wire::kTypeInitiation && d[0] <= wire::kTypeData);
    return false;   // b never hears a
  };
  ASSERT_EQ(p.a->send(ip_packet(200, 4), p.now), transport::SendResult::accepted);
  p.step();
  EXPECT_EQ(p.delivered_b, 0u);
  EXPECT_EQ(p.a->session().counters().tx_staged, 0u);   // held, not sent
}

// What the inner core sends before the first key is held (the newest 8 datagrams) and leaves
// sealed, in order, as soon as the handshake completes; older ones are counted as dropped.
TEST(SecureCore, DatagramsStagedBeforeTheHandshakeLeaveSealedOnceItCompletes) {
  CorePair p;
  const test::StagedRun r = test::stage_ten_then_connect(p);
  EXPECT_EQ(r.accepted, 10);
  EXPECT_TRUE(r.only_secure_types);
  EXPECT_EQ(r.delivered_while_cut, 0u);
  // Staged: the 10 packets, then the plain core's keepalive after 1 s of silence (the newest). The
  // ring kept the newest 8 (packets 3-9 and the keepalive) and dropped packets 0-2.
  const auto& c = p.a->session().counters();
  EXPECT_EQ(c.tx_staged, 8u);
  EXPECT_EQ(c.tx_no_session, 3u);
  EXPECT_EQ(p.delivered_b, 7u);
  EXPECT_EQ(inner_plain(*p.b).counters().rx_packets, 7u);
}

}  // namespace
}  // namespace ncgw::crypto
