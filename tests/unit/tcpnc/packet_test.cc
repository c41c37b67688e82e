// Unit tests of the TCP/NC packet codec and the receiver's ACK range set.
#include <gtest/gtest.h>

#include <vector>

#include "transports/tcpnc/ack_ranges.h"
#include "transports/tcpnc/packet.h"

namespace ncgw::tcpnc {
namespace {

std::vector<std::uint8_t> buffer() { return std::vector<std::uint8_t>(2048, 0xEE); }

TEST(PacketCodec, CommonHeaderRoundTripAndLayout) {
  auto b = buffer();
  ASSERT_EQ(write_common(b, {PacketType::kKeepalive, 0x01020304, 0xA0B0C0D0}), kCommonHeaderSize);
  EXPECT_EQ(b[0], kVersion << 4 | 5);   // version and type share byte 0
  EXPECT_EQ(b[1], 0x01);
  EXPECT_EQ(b[8], 0xD0);
  const auto h = parse_common(std::span(b).first(kCommonHeaderSize));
  ASSERT_TRUE(h);
  EXPECT_EQ(h->type, PacketType::kKeepalive);
  EXPECT_EQ(h->src_session, 0x01020304u);
  EXPECT_EQ(h->dst_session, 0xA0B0C0D0u);
}

TEST(PacketCodec, CommonHeaderRejectsBadInput) {
  auto b = buffer();
  write_common(b, {PacketType::kData, 7, 9});
  EXPECT_FALSE(parse_common(std::span(b).first(kCommonHeaderSize - 1)));
  auto v = b; v[0] = static_cast<std::uint8_t>((kVersion + 1) << 4 | 1);
  EXPECT_FALSE(parse_common(v));
  auto old = b; old[0] = 2; old[1] = 1;   // protocol version 2: version and type in two bytes
  EXPECT_FALSE(parse_common(old));
  auto t = b; t[0] = kVersion << 4;
  EXPECT_FALSE(parse_common(t));
  t[0] = kVersion << 4 | 7;
  EXPECT_FALSE(parse_common(t));
  auto z = b;
  write_common(z, {PacketType::kData, 0, 9});
  EXPECT_FALSE(parse_common(z));  // session id 0 is never valid as a source
}

TEST(PacketCodec, DataHeaderRoundTrip) {
  auto b = buffer();
  ASSERT_EQ(write_data_header(b, {PacketType::kData, 1, 2}, {0x1122334455667788ULL}), kDataHeaderSize);
  b.resize(kDataHeaderSize + 5);
  std::span<const std::uint8_t> coded;
  const auto d = parse_data(b, coded);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->tx, 0x667788ULL);  // low 24 bits on the wire
  EXPECT_EQ(coded.size(), 5u);
  EXPECT_FALSE(parse_data(std::span(b).first(kDataHeaderSize - 1), coded));
}

AckFrame sample_ack() {
  AckFrame a;
  a.seen = 123456789;
  a.largest = 1000;
  a.ack_delay_us = 250;
  a.first_cw = 41;
  a.cw_count = 3;
  a.cws[0] = {5, kCwFlagKnown};
  a.cws[1] = {16, kCwFlagKnown | kCwFlagComplete};
  a.cws[2] = {0, 0};
  a.range_count = 3;
  a.ranges[0] = {990, 1000};
  a.ranges[1] = {950, 980};
  a.ranges[2] = {10, 10};
  return a;
}

TEST(PacketCodec, AckRoundTrip) {
  auto b = buffer();
  const AckFrame a = sample_ack();
  const std::size_t n = write_ack(b, {PacketType::kAck, 3, 4}, a);
  ASSERT_EQ(n, kAckFixedSize + 3 * kAckCwEntrySize + 2 * kAckRangeSize);
  const auto p = parse_ack(std::span(b).first(n));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->seen, a.seen);
  EXPECT_EQ(p->largest, 1000u);
  EXPECT_EQ(p->ack_delay_us, 250u);
  EXPECT_EQ(p->first_cw, 41u);
  ASSERT_EQ(p->cw_count, 3);
  EXPECT_EQ(p->cws[1].rank, 16);
  EXPECT_EQ(p->cws[1].flags, kCwFlagKnown | kCwFlagComplete);
  ASSERT_EQ(p->range_count, 3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(p->ranges[i].smallest, a.ranges[i].smallest) << i;
    EXPECT_EQ(p->ranges[i].largest, a.ranges[i].largest) << i;
  }
  EXPECT_FALSE(parse_ack(std::span(b).first(n - 1)));
}

TEST(PacketCodec, AckWriterRejectsOverlappingOrAdjacentRanges) {
  auto b = buffer();
  AckFrame a = sample_ack();
  a.ranges[1] = {950, 989};  // adjacent to 990: should have been one range
  EXPECT_EQ(write_ack(b, {PacketType::kAck, 3, 4}, a), 0u);
  a = sample_ack();
  a.ranges[0].largest = 999;  // largest must open the first range
  EXPECT_EQ(write_ack(b, {PacketType::kAck, 3, 4}, a), 0u);
  EXPECT_EQ(write_ack(std::span(b).first(20), {PacketType::kAck, 3, 4}, sample_ack()), 0u);
}

TEST(PacketCodec, AckParserRejectsUnderflowAndCounts) {
  auto b = buffer();
  AckFrame a = sample_ack();
  const std::size_t n = write_ack(b, {PacketType::kAck, 3, 4}, a);
  auto under = std::vector<std::uint8_t>(b.begin(), b.begin() + static_cast<long>(n));
  // Last range's gap made huge: it would go below transmission 0.
  const std::size_t last = kAckFixedSize + 3 * kAckCwEntrySize + kAckRangeSize;
  under[last] = 0xFF;
  under[last + 1] = 0xFF;
  EXPECT_FALSE(parse_ack(under));
  auto counts = std::vector<std::uint8_t>(b.begin(), b.begin() + static_cast<long>(n));
  counts[kOffAckCwCount] = 200;  // more CW entries than the datagram holds
  EXPECT_FALSE(parse_ack(counts));
  auto first = std::vector<std::uint8_t>(b.begin(), b.begin() + static_cast<long>(n));
  first[kOffAckLargest + 7] = 3;  // largest 3 with first range length 10
  first[kOffAckLargest + 6] = 0;
  EXPECT_FALSE(parse_ack(first));
}

// A DATA datagram with 100 payload bytes (coded part opaque here) in a buffer.
std::size_t sample_data(std::vector<std::uint8_t>& b) {
  const std::size_t n = write_data_header(b, {PacketType::kData, 3, 4}, {70000});
  for (std::size_t i = 0; i < 100; ++i) b[n + i] = static_cast<std::uint8_t>(i);
  return n + 100;
}

TEST(PacketCodec, DataAckCarriesBothPartsIntact) {
  auto b = buffer();
  const std::size_t d = sample_data(b);
  auto ack = buffer();
  const std::size_t an = write_ack(ack, {PacketType::kAck, 3, 4}, sample_ack());
  const std::size_t n = append_ack(b, d, std::span(ack).first(an));
  ASSERT_EQ(n, d + an - kCommonHeaderSize + kAckTrailerSize);
  const auto span = std::span<const std::uint8_t>(b).first(n);
  const auto h = parse_common(span);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->type, PacketType::kDataAck);
  const auto parts = split_data_ack(span);
  ASSERT_TRUE(parts);
  ASSERT_EQ(parts->data.size(), d);
  std::span<const std::uint8_t> coded;
  const auto dh = parse_data(parts->data, coded);
  ASSERT_TRUE(dh);
  EXPECT_EQ(dh->tx, 70000u);
  ASSERT_EQ(coded.size(), 100u);
  EXPECT_EQ(coded[99], 99);
  const auto a = parse_ack_body(parts->ack_body);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->seen, sample_ack().seen);
  ASSERT_EQ(a->range_count, 3);
  EXPECT_EQ(a->ranges[2].smallest, 10u);
}

TEST(PacketCodec, DataAckNeedsRoomAndAValidTrailer) {
  auto b = buffer();
  const std::size_t d = sample_data(b);
  auto ack = buffer();
  const std::size_t an = write_ack(ack, {PacketType::kAck, 3, 4}, sample_ack());
  // No room: nothing appended, the DATA datagram stays as it was.
  EXPECT_EQ(append_ack(std::span(b).first(d + 10), d, std::span(ack).first(an)), 0u);
  EXPECT_EQ(peek_type(b), PacketType::kData);
  const std::size_t n = append_ack(b, d, std::span(ack).first(an));
  ASSERT_GT(n, 0u);
  auto bad = std::vector<std::uint8_t>(b.begin(), b.begin() + static_cast<long>(n));
  bad[n - 2] = 0xFF;  // ACK body longer than the datagram
  EXPECT_FALSE(split_data_ack(bad));
  bad[n - 2] = 0;
  bad[n - 1] = 3;     // shorter than any ACK body
  EXPECT_FALSE(split_data_ack(bad));
  EXPECT_FALSE(split_data_ack(std::span(b).first(kDataHeaderSize + 1)));
  // A body whose counts claim more entries than it holds is rejected by the ACK parser.
  auto counts = std::vector<std::uint8_t>(b.begin(), b.begin() + static_cast<long>(n));
  counts[d + kOffAckCwCount - kCommonHeaderSize] = 200;
  const auto parts = split_data_ack(counts);
  ASSERT_TRUE(parts);
  EXPECT_FALSE(parse_ack_body(parts->ack_body));
}

TEST(PacketCodec, HelloRoundTripAndValidation) {
  auto b = buffer();
  Hello h;
  h.max_packet = 1430;
  h.max_n = 64;
  h.max_open = 19;
  h.flags = kHelloFlagHeaderCompression;
  ASSERT_EQ(write_hello(b, {PacketType::kHello, 8, 0}, h), kHelloSize);
  const auto p = parse_hello(std::span(b).first(kHelloSize));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->max_packet, 1430);
  EXPECT_EQ(p->max_n, 64);
  EXPECT_EQ(p->max_open, 19);
  EXPECT_EQ(p->flags, kHelloFlagHeaderCompression);
  EXPECT_FALSE(parse_hello(std::span(b).first(kHelloSize - 1)));
  auto v = b;
  v[kOffHelloVersion + 3] = 9;
  EXPECT_FALSE(parse_hello(v));
  auto z = b;
  z[kOffHelloMaxN] = 0;
  EXPECT_FALSE(parse_hello(z));
}

TEST(AckRangesTest, MergesDetectsDuplicatesAndFillsFrames) {
  AckRanges r;
  for (std::uint64_t tx : {0, 1, 2, 5, 6, 4, 10}) EXPECT_TRUE(r.insert(tx)) << tx;
  EXPECT_FALSE(r.insert(5));
  EXPECT_FALSE(r.insert(0));
  EXPECT_EQ(r.count(), 3u);  // [10], [4..6], [0..2]
  EXPECT_TRUE(r.insert(3));  // joins [4..6] and [0..2]
  EXPECT_EQ(r.count(), 2u);
  AckFrame a;
  r.fill(a);
  ASSERT_EQ(a.range_count, 2);
  EXPECT_EQ(a.largest, 10u);
  EXPECT_EQ(a.ranges[0].smallest, 10u);
  EXPECT_EQ(a.ranges[1].smallest, 0u);
  EXPECT_EQ(a.ranges[1].largest, 6u);
  auto b = buffer();
  ASSERT_GT(write_ack(b, {PacketType::kAck, 1, 1}, a), 0u);
}

TEST(AckRangesTest, ForgetsTheOldestWhenFull) {
  AckRanges r;
  for (std::uint64_t i = 0; i < 2 * (kMaxAckRanges + 1); ++i) r.insert(i * 2);  // all disjoint
  EXPECT_EQ(r.count(), kMaxAckRanges + 1);
  AckFrame a;
  r.fill(a);
  EXPECT_EQ(a.largest, 2 * (2 * (kMaxAckRanges + 1) - 1));
  ASSERT_EQ(a.range_count, kAckRangesSent + 1);  // an ACK carries only the newest ranges
  EXPECT_EQ(a.ranges[a.range_count - 1].smallest, a.largest - 2 * kAckRangesSent);
  EXPECT_TRUE(r.insert(1));  // older than everything kept: accepted but not remembered
  EXPECT_EQ(r.count(), kMaxAckRanges + 1);
}

}  // namespace
}  // namespace ncgw::tcpnc
