// The plain header codec: exact bytes, round trip, and every rejection reason.
#include <gtest/gtest.h>

#include <vector>

#include "transports/plain/header.h"

namespace ncgw::plain {
namespace {

std::vector<std::uint8_t> datagram(PacketType type, std::uint32_t session, std::size_t payload,
                                   std::uint16_t seq = 0) {
  std::vector<std::uint8_t> d(kHeaderSize + payload, 0xAB);
  encode_header({type, 0, 0, session, seq}, d);
  return d;
}

TEST(PlainHeader, EncodesExactBytes) {
  auto d = datagram(PacketType::data, 0x01020304, 0, 0xA1B2);
  const std::vector<std::uint8_t> expect{0x4E, 0x47, 2, 1, 0, 0, 0xA1, 0xB2, 1, 2, 3, 4};
  EXPECT_EQ(d, expect);
}

TEST(PlainHeader, DecodesTheSequenceNumberAtOffsetSix) {
  auto d = datagram(PacketType::keepalive, 3, 0);
  d[6] = 0xFF;
  d[7] = 0xFE;
  const Decoded r = decode_datagram(d);
  ASSERT_EQ(r.error, DecodeError::none);
  EXPECT_EQ(r.header.seq, 0xFFFEu);
}

TEST(PlainHeader, RoundTripsDataAndKeepalive) {
  auto d = datagram(PacketType::data, 77, 100);
  Decoded r = decode_datagram(d);
  ASSERT_EQ(r.error, DecodeError::none);
  EXPECT_EQ(r.header.type, PacketType::data);
  EXPECT_EQ(r.header.session_id, 77u);
  EXPECT_EQ(r.payload.size(), 100u);
  EXPECT_EQ(r.payload.data(), d.data() + kHeaderSize);

  auto k = datagram(PacketType::keepalive, 9, 0);
  r = decode_datagram(k);
  ASSERT_EQ(r.error, DecodeError::none);
  EXPECT_EQ(r.header.type, PacketType::keepalive);
}

TEST(PlainHeader, RejectsEachMalformation) {
  auto good = datagram(PacketType::data, 5, 20);
  EXPECT_EQ(decode_datagram(std::span(good).first(kHeaderSize - 1)).error, DecodeError::too_short);
  EXPECT_EQ(decode_datagram({}).error, DecodeError::too_short);
  auto bad = good;
  bad[0] = 0x45;  // an IPv4 packet is not ours
  EXPECT_EQ(decode_datagram(bad).error, DecodeError::bad_magic);
  bad = good; bad[2] = 1;  // v1: a zero reserved field, no sequence number
  EXPECT_EQ(decode_datagram(bad).error, DecodeError::bad_version);
  bad = good; bad[2] = 3;
  EXPECT_EQ(decode_datagram(bad).error, DecodeError::bad_version);
  bad = good; bad[3] = 0;
  EXPECT_EQ(decode_datagram(bad).error, DecodeError::bad_type);
  bad = good; bad[3] = 3;
  EXPECT_EQ(decode_datagram(bad).error, DecodeError::bad_type);
  bad = good; bad[4] = kFlagAuthenticated;
  EXPECT_EQ(decode_datagram(bad).error, DecodeError::bad_flags);
  bad = good; bad[5] = 16;
  EXPECT_EQ(decode_datagram(bad).error, DecodeError::bad_flags);
  auto empty_data = datagram(PacketType::data, 5, 0);
  EXPECT_EQ(decode_datagram(empty_data).error, DecodeError::bad_length);
  auto fat_keepalive = datagram(PacketType::keepalive, 5, 1);
  EXPECT_EQ(decode_datagram(fat_keepalive).error, DecodeError::bad_length);
}

}  // namespace
}  // namespace ncgw::plain
