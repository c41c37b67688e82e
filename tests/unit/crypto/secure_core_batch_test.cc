// The secure layer's batch calls: records opened or sealed a batch at a time carry what the
// single-datagram calls carry, in order, and a bad record in a batch is dropped alone.
#include <gtest/gtest.h>

#include <vector>

#include "core_pair.h"

namespace ncgw::crypto {
namespace {

using namespace std::chrono_literals;
using test::CorePair;
using test::ip_packet;

// A pair whose handshake has completed.
void connect(CorePair& p) {
  p.step();
  p.now += 1ms;
  p.step();
  ASSERT_TRUE(p.a->session().can_send(p.now));
}

// Everything `from` sends now, one datagram per element, through poll_transmits into slots of
// `slot` bytes.
std::vector<std::vector<std::uint8_t>> take_all(SecureCore& from, transport::TimePoint now, std::size_t slot = 2048) {
  std::vector<std::vector<std::uint8_t>> out;
  std::vector<std::uint8_t> bytes(transport::kMaxBatch * slot);
  std::array<std::span<std::uint8_t>, transport::kMaxBatch> slots;
  std::array<std::size_t, transport::kMaxBatch> lengths;
  for (std::size_t n = transport::kMaxBatch; n == transport::kMaxBatch;) {
    for (std::size_t i = 0; i < slots.size(); ++i) slots[i] = std::span(bytes).subspan(i * slot, slot);
    n = from.poll_transmits(slots, lengths, now);
    for (std::size_t i = 0; i < n; ++i) out.emplace_back(slots[i].begin(), slots[i].begin() + lengths[i]);
  }
  return out;
}

// Fills of the packets `c` delivers, in delivery order (each test packet is one repeated byte).
std::vector<std::uint8_t> delivered_fills(SecureCore& c) {
  std::vector<std::uint8_t> fills, buf(9216);
  while (auto n = c.poll_deliver(buf)) fills.push_back(buf[*n - 1]);
  return fills;
}

// Feeds `records` to `to` as one on_datagrams call.
void feed(SecureCore& to, const std::vector<std::vector<std::uint8_t>>& records, transport::TimePoint now) {
  std::vector<transport::Arrival> batch;
  for (const auto& r : records) batch.push_back({r, now});
  to.on_datagrams(batch);
}

TEST(SecureCoreBatch, ABatchLongerThanTheLimitArrivesWholeAndInOrder) {
  CorePair p;
  connect(p);
  for (int i = 0; i < 150; ++i) ASSERT_EQ(p.a->send(ip_packet(1000, static_cast<std::uint8_t>(i)), p.now),
                                          transport::SendResult::accepted);
  const auto records = take_all(*p.a, p.now);
  ASSERT_EQ(records.size(), 150u);
  feed(*p.b, records, p.now);
  const auto fills = delivered_fills(*p.b);
  ASSERT_EQ(fills.size(), 150u);
  for (int i = 0; i < 150; ++i) EXPECT_EQ(fills[i], static_cast<std::uint8_t>(i));
  EXPECT_EQ(p.b->session().counters().rx_records, 150u + 1);   // and the confirming keep-alive
}

// 64 jumbo records hold more than the layer opens before it hands a part to the inner core.
TEST(SecureCoreBatch, JumboRecordsBeyondTheOpeningBufferArriveWholeAndInOrder) {
  CorePair p;
  p.a = test::secure_plain(1, 2, 9000);
  p.b = test::secure_plain(2, 1, 9000);
  connect(p);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(p.a->send(ip_packet(8900, static_cast<std::uint8_t>(i)), p.now),
                                         transport::SendResult::accepted);
  const auto records = take_all(*p.a, p.now, 9000);
  ASSERT_EQ(records.size(), 64u);
  feed(*p.b, records, p.now);
  const auto fills = delivered_fills(*p.b);
  ASSERT_EQ(fills.size(), 64u);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(fills[i], static_cast<std::uint8_t>(i));
}

TEST(SecureCoreBatch, ABadRecordInABatchIsDroppedAloneAndCounted) {
  CorePair p;
  connect(p);
  for (int i = 0; i < 20; ++i) ASSERT_EQ(p.a->send(ip_packet(600, static_cast<std::uint8_t>(i)), p.now),
                                         transport::SendResult::accepted);
  auto records = take_all(*p.a, p.now);
  ASSERT_EQ(records.size(), 20u);
  records[5][wire::kDataHeaderSize + 3] ^= 1;   // forged ciphertext
  records.push_back(records[7]);                 // a replay
  feed(*p.b, records, p.now);
  const auto fills = delivered_fills(*p.b);
  ASSERT_EQ(fills.size(), 19u);
  for (std::size_t i = 0, want = 0; i < fills.size(); ++i, ++want) {
    if (want == 5) ++want;
    EXPECT_EQ(fills[i], want);
  }
  EXPECT_EQ(p.b->session().counters().drop_bad_tag, 1u);
  EXPECT_EQ(p.b->session().counters().drop_replay, 1u);
}

TEST(SecureCoreBatch, HandshakeAndStagedDatagramsMoveInBatchesToo) {
  CorePair p;
  p.batched = true;
  const test::StagedRun r = test::stage_ten_then_connect(p);
  EXPECT_EQ(r.accepted, 10);
  EXPECT_TRUE(r.only_secure_types);
  EXPECT_EQ(r.delivered_while_cut, 0u);
  // As with single datagrams (SecureCore.DatagramsStagedBeforeTheHandshake...): the newest 8
  // staged datagrams leave sealed, packets 0-2 are counted as dropped.
  EXPECT_EQ(p.a->session().counters().tx_staged, 8u);
  EXPECT_EQ(p.a->session().counters().tx_no_session, 3u);
  EXPECT_EQ(p.delivered_b, 7u);
  for (int i = 0; i < 50; ++i) ASSERT_EQ(p.a->send(ip_packet(900, 1), p.now), transport::SendResult::accepted);
  p.step();
  EXPECT_EQ(p.delivered_b, 57u);
  EXPECT_EQ(p.b->session().counters().drop_bad_tag, 0u);
}

TEST(SecureCoreBatch, SlotsTooSmallForARecordEndTheBatch) {
  CorePair p;
  connect(p);
  ASSERT_EQ(p.a->send(ip_packet(100, 1), p.now), transport::SendResult::accepted);
  std::array<std::uint8_t, wire::kRecordOverhead> tiny{};
  std::array<std::span<std::uint8_t>, 1> slots{std::span<std::uint8_t>(tiny)};
  std::array<std::size_t, 1> lengths{};
  EXPECT_EQ(p.a->poll_transmits(slots, lengths, p.now), 0u);
  EXPECT_EQ(take_all(*p.a, p.now).size(), 1u);   // still there for a slot that holds it
}

}  // namespace
}  // namespace ncgw::crypto
