// Packet codec against golden bytes (taken from the reference library, docs/udt-wire.md) and round trips.
#include <gtest/gtest.h>

#include <vector>

#include "transports/udt/packet.h"
#include "transports/udt/seq.h"

namespace ncgw::udt {
namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(UdtPacket, HandshakeGoldenBytes) {
  Handshake h;
  h.version = 4;
  h.sock_type = wire::kSockDgram;
  h.isn = 0x7FFFFC16;
  h.mss = 1500;
  h.flight_flag_size = 8192;
  h.req_type = 1;
  h.socket_id = 0x0ABCDEF1;
  h.cookie = 0;
  h.peer_ip = peer_ip_words(PeerAddress::v4(127, 0, 0, 1, 9000));
  Bytes out(64);
  ASSERT_EQ(write_handshake(out, 0, h), 64u);
  const Bytes golden = {
      0x80, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // control type 0, to id 0
      0, 0, 0, 4, 0, 0, 0, 2, 0x7F, 0xFF, 0xFC, 0x16, 0, 0, 0x05, 0xDC,
      0, 0, 0x20, 0x00, 0, 0, 0, 1, 0x0A, 0xBC, 0xDE, 0xF1, 0, 0, 0, 0,
      0x01, 0x00, 0x00, 0x7F, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};  // 127.0.0.1 as the library writes it
  EXPECT_EQ(out, golden);
  const auto p = parse_packet(out);
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->control);
  EXPECT_EQ(p->type, wire::ControlType::handshake);
  const auto back = parse_handshake(p->payload);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, h);
}

TEST(UdtPacket, HandshakeRejectResponse) {
  Handshake h;
  h.req_type = wire::kReqRejected;
  h.isn = 0;
  Bytes out(64);
  write_handshake(out, 77, h);
  EXPECT_EQ(Bytes(out.begin() + 36, out.begin() + 40), (Bytes{0, 0, 0x03, 0xEA}));  // 1002
  EXPECT_EQ(Bytes(out.begin() + 12, out.begin() + 16), (Bytes{0, 0, 0, 77}));
  h.req_type = -1;
  write_handshake(out, 77, h);
  EXPECT_EQ(Bytes(out.begin() + 36, out.begin() + 40), (Bytes{0xFF, 0xFF, 0xFF, 0xFF}));
}

TEST(UdtPacket, DataHeaderGoldenBytes) {
  Bytes out(16);
  write_data_header(out, 0x7FFFFFFF, make_msg_word(5, true, true, true), 123456, 0x01020304);
  EXPECT_EQ(out, (Bytes{0x7F, 0xFF, 0xFF, 0xFF, 0xE0, 0, 0, 5, 0, 0x01, 0xE2, 0x40, 1, 2, 3, 4}));
  const auto p = parse_packet(out);
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->control);
  EXPECT_EQ(p->seq, 0x7FFFFFFF);
  EXPECT_TRUE(msg_first(p->msg_word));
  EXPECT_TRUE(msg_last(p->msg_word));
  EXPECT_EQ(msg_no(p->msg_word), 5);
  EXPECT_EQ(p->timestamp, 123456u);
  EXPECT_EQ(p->dest_id, 0x01020304u);
  EXPECT_TRUE(p->payload.empty());
  // a middle packet: boundary bits 00, out of order
  write_data_header(out, 1, make_msg_word(0x1FFFFFFE, false, false, false), 0, 0);
  EXPECT_EQ(Bytes(out.begin() + 4, out.begin() + 8), (Bytes{0x1F, 0xFF, 0xFF, 0xFE}));
}

TEST(UdtPacket, ContentlessControlHasFourBytePad) {
  Bytes out(32, 0xAA);
  EXPECT_EQ(write_control(out, wire::ControlType::keepalive, 0, 0x12345678, {}), 20u);
  EXPECT_EQ(Bytes(out.begin(), out.begin() + 20),
            (Bytes{0x80, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34, 0x56, 0x78, 0, 0, 0, 0}));
  EXPECT_EQ(write_control(out, wire::ControlType::shutdown, 0, 1, {}), 20u);
  EXPECT_EQ(out[1], 0x05);
  EXPECT_EQ(write_control(out, wire::ControlType::ack2, 42, 1, {}), 20u);
  EXPECT_EQ(Bytes(out.begin(), out.begin() + 8), (Bytes{0x80, 0x06, 0, 0, 0, 0, 0, 42}));
}

TEST(UdtPacket, AckForms) {
  Bytes out(64);
  AckContent a;
  a.words = 6;
  a.ack = 1000;
  a.rtt_us = 100000;
  a.rtt_var_us = 50000;
  a.avail_buffer = 8190;
  a.arrival_rate = 12345;
  a.capacity = 67890;
  ASSERT_EQ(write_ack(out, 9, 3, a), 40u);
  EXPECT_EQ(Bytes(out.begin(), out.begin() + 8), (Bytes{0x80, 0x02, 0, 0, 0, 0, 0, 3}));
  EXPECT_EQ(Bytes(out.begin() + 16, out.begin() + 24), (Bytes{0, 0, 0x03, 0xE8, 0, 0x01, 0x86, 0xA0}));
  auto p = parse_packet(std::span(out.data(), 40));
  auto back = parse_ack(p->payload);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->words, 6);
  EXPECT_EQ(back->capacity, 67890);
  EXPECT_EQ(p->info, 3u);
  a.words = 4;
  ASSERT_EQ(write_ack(out, 9, 4, a), 32u);
  back = parse_ack(parse_packet(std::span(out.data(), 32))->payload);
  EXPECT_EQ(back->words, 4);
  EXPECT_EQ(back->avail_buffer, 8190);
  a.words = 1;
  ASSERT_EQ(write_ack(out, 9, 0, a), 20u);
  back = parse_ack(parse_packet(std::span(out.data(), 20))->payload);
  EXPECT_EQ(back->words, 1);
  EXPECT_EQ(back->ack, 1000);
  // 8 bytes is no ACK form
  EXPECT_FALSE(parse_ack(std::span(out.data() + 16, 8)));
}

TEST(UdtPacket, NakRangeCompression) {
  const std::array<std::int32_t, 2> ranges[] = {{5, 5}, {10, 20}, {0x7FFFFFFE, 1}};
  Bytes out(64);
  const std::size_t n = write_nak(out, 1, ranges);
  ASSERT_EQ(n, 16u + 4 * 5);
  EXPECT_EQ(Bytes(out.begin() + 16, out.begin() + 36),
            (Bytes{0, 0, 0, 5, 0x80, 0, 0, 10, 0, 0, 0, 20, 0xFF, 0xFF, 0xFF, 0xFE, 0, 0, 0, 1}));
  std::vector<std::array<std::int32_t, 2>> back;
  ASSERT_TRUE(for_each_nak_range(std::span(out.data() + 16, 20), [&](std::int32_t a, std::int32_t b) {
    back.push_back({a, b});
    return true;
  }));
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[2][0], 0x7FFFFFFE);
  EXPECT_EQ(back[2][1], 1);
  // a range start in the last word is malformed
  const Bytes bad = {0x80, 0, 0, 1};
  EXPECT_FALSE(for_each_nak_range(bad, [](std::int32_t, std::int32_t) { return true; }));
}

TEST(UdtPacket, DropRequestAndMalformed) {
  Bytes out(32);
  ASSERT_EQ(write_drop_request(out, 5, DropRequest{77, 100, 103}), 24u);
  EXPECT_EQ(Bytes(out.begin(), out.begin() + 8), (Bytes{0x80, 0x07, 0, 0, 0, 0, 0, 77}));
  const auto p = parse_packet(std::span(out.data(), 24));
  const auto d = parse_drop_request(*p);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->first, 100);
  EXPECT_EQ(d->last, 103);
  EXPECT_FALSE(parse_packet(std::span(out.data(), 15)));
  EXPECT_FALSE(parse_packet(std::span(out.data(), 18)));  // control payload not whole words
  EXPECT_FALSE(parse_handshake(std::span(out.data(), 47)));
}

TEST(UdtSeq, Arithmetic) {
  EXPECT_EQ(seq::inc(0x7FFFFFFF), 0);
  EXPECT_EQ(seq::dec(0), 0x7FFFFFFF);
  EXPECT_GT(seq::cmp(0, 0x7FFFFFFF), 0);
  EXPECT_LT(seq::cmp(0x7FFFFFF0, 5), 0);
  EXPECT_EQ(seq::off(0x7FFFFFFE, 1), 3);
  EXPECT_EQ(seq::off(1, 0x7FFFFFFE), -3);
  EXPECT_EQ(seq::len(0x7FFFFFFE, 1), 4);
  EXPECT_EQ(seq::len(5, 5), 1);
  EXPECT_EQ(seq::add(0x7FFFFFFE, 3), 1);
  EXPECT_EQ(seq::add(10, 3), 13);
  EXPECT_GT(seq::cmp(100, 50), 0);
  EXPECT_EQ(seq::inc_msg(wire::kMaxMsgNo - 1), 1);
}

}  // namespace
}  // namespace ncgw::udt
