// TUN offload frames (virtio_net_hdr + packet) cut into packets: TCP super-packets over IPv4 and
// IPv6 against the segments libtins builds with the same fields, partial checksums completed, and
// malformed headers rejected.
#include <tins/tins.h>

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "gateway/icmp.h"
#include "gateway/tun_offload.h"

namespace ncgw::gateway {
namespace {

// Payload byte i of a test flow.
std::uint8_t payload_byte(std::size_t i) { return static_cast<std::uint8_t>(i * 13 + 5); }

std::vector<std::uint8_t> payload(std::size_t offset, std::size_t size) {
  std::vector<std::uint8_t> p(size);
  for (std::size_t i = 0; i < size; ++i) p[i] = payload_byte(offset + i);
  return p;
}

// A TCP header with the fields every segment of the test flow shares; `flags` as TCP flag bits.
Tins::TCP tcp_header(std::uint32_t seq, std::uint8_t flags) {
  Tins::TCP tcp(443, 50000);
  tcp.seq(seq);
  tcp.ack_seq(777);
  tcp.window(1000);
  tcp.flags(flags);
  tcp.timestamp(11, 22);   // options: a 32-byte TCP header
  return tcp;
}

std::vector<std::uint8_t> tcp4(std::uint16_t id, std::uint32_t seq, std::uint8_t flags, std::size_t offset, std::size_t size) {
  Tins::IP ip("10.2.0.2", "10.1.0.2");
  ip.id(id);
  ip.flags(Tins::IP::DONT_FRAGMENT);
  auto pdu = ip / tcp_header(seq, flags) / Tins::RawPDU(payload(offset, size));
  return pdu.serialize();
}

std::vector<std::uint8_t> tcp6(std::uint32_t seq, std::uint8_t flags, std::size_t offset, std::size_t size) {
  Tins::IPv6 ip("fd00:2::2", "fd00:1::2");
  auto pdu = ip / tcp_header(seq, flags) / Tins::RawPDU(payload(offset, size));
  return pdu.serialize();
}

// A TUN frame: a virtio_net_hdr with these fields, then `packet`.
std::vector<std::uint8_t> frame(std::uint8_t flags, std::uint8_t gso_type, std::uint16_t gso_size,
                                std::uint16_t csum_start, std::uint16_t csum_offset, const std::vector<std::uint8_t>& packet) {
  VnetHeader h;
  h.flags = flags;
  h.gso_type = gso_type;
  h.gso_size = gso_size;
  h.csum_start = csum_start;
  h.csum_offset = csum_offset;
  std::vector<std::uint8_t> f(kVnetHeaderSize);
  write_vnet_header(h, f.data());
  f.insert(f.end(), packet.begin(), packet.end());
  return f;
}

std::vector<std::uint8_t> bytes(std::span<const std::uint8_t> s) { return {s.begin(), s.end()}; }

constexpr std::uint8_t kFin = Tins::TCP::FIN, kPsh = Tins::TCP::PSH, kAck = Tins::TCP::ACK, kCwr = Tins::TCP::CWR;

TEST(TunOffload, CutsAnIpv4TcpSuperPacketLikeTheKernel) {
  // 3.5 segments of 1000 bytes; the kernel leaves the TCP checksum partial (garbage here).
  auto super = tcp4(100, 5000, kAck | kPsh | kFin | kCwr, 0, 3500);
  super[20 + 16] = 0xde;
  super[20 + 17] = 0xad;
  auto f = frame(kVnetFlagNeedsCsum, kVnetGsoTcpV4, 1000, 20, 16, super);
  OffloadSplitter s;
  ASSERT_EQ(s.split(f), SplitResult::segmented);
  ASSERT_EQ(s.count(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    std::uint8_t flags = kAck;
    if (i == 0) flags |= kCwr;                       // CWR on the first segment only
    if (i == 3) flags |= kPsh | kFin;                // PSH and FIN on the last only
    const std::size_t size = i == 3 ? 500 : 1000;
    const auto expected = tcp4(static_cast<std::uint16_t>(100 + i), 5000 + 1000 * static_cast<std::uint32_t>(i), flags, 1000 * i, size);
    EXPECT_EQ(bytes(s.segment(i)), expected) << "segment " << i;
  }
}

TEST(TunOffload, CutsAnIpv6TcpSuperPacketLikeTheKernel) {
  auto super = tcp6(0xFFFFFF00u, kAck | kPsh, 0, 2 * 1400 + 1);   // sequence numbers wrap
  auto f = frame(kVnetFlagNeedsCsum, kVnetGsoTcpV6, 1400, 40, 16, super);
  OffloadSplitter s;
  ASSERT_EQ(s.split(f), SplitResult::segmented);
  ASSERT_EQ(s.count(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const std::uint8_t flags = i == 2 ? kAck | kPsh : kAck;
    const auto expected = tcp6(0xFFFFFF00u + 1400 * static_cast<std::uint32_t>(i), flags, 1400 * i, i == 2 ? 1 : 1400);
    EXPECT_EQ(bytes(s.segment(i)), expected) << "segment " << i;
  }
}

TEST(TunOffload, AGsoFrameThatFitsOneSegmentIsOnePacket) {
  const auto p = tcp4(7, 1, kAck, 0, 600);
  OffloadSplitter s;
  auto f = frame(0, kVnetGsoTcpV4, 1000, 0, 0, p);
  ASSERT_EQ(s.split(f), SplitResult::packet);
  ASSERT_EQ(s.count(), 1u);
  EXPECT_EQ(bytes(s.segment(0)), p);
}

TEST(TunOffload, CompletesAPartialUdpChecksum) {
  Tins::IP ip("10.2.0.2", "10.1.0.2");
  auto pdu = ip / Tins::UDP(53, 4000) / Tins::RawPDU(payload(0, 301));   // odd length
  const auto whole = pdu.serialize();
  // What the kernel hands over with checksum offload: the field holds the pseudo-header sum.
  auto partial = whole;
  std::uint32_t pseudo = checksum_add(0, std::span(whole).subspan(12, 8));
  pseudo += 17 + (whole.size() - 20);
  while (pseudo >> 16) pseudo = (pseudo & 0xFFFF) + (pseudo >> 16);
  partial[26] = static_cast<std::uint8_t>(pseudo >> 8);
  partial[27] = static_cast<std::uint8_t>(pseudo);
  ASSERT_NE(partial, whole);
  auto f = frame(kVnetFlagNeedsCsum, kVnetGsoNone, 0, 20, 6, partial);
  OffloadSplitter s;
  ASSERT_EQ(s.split(f), SplitResult::packet);
  EXPECT_EQ(bytes(s.segment(0)), whole);
}

TEST(TunOffload, APacketWithoutFlagsPassesUntouched) {
  const auto p = tcp6(9, kAck, 0, 100);
  auto f = frame(kVnetFlagDataValid, kVnetGsoNone, 0, 0, 0, p);
  OffloadSplitter s;
  ASSERT_EQ(s.split(f), SplitResult::packet);
  EXPECT_EQ(bytes(s.segment(0)), p);
}

TEST(TunOffload, RejectsMalformedHeaders) {
  const auto p4 = tcp4(1, 1, kAck, 0, 3000);
  OffloadSplitter s;
  std::vector<std::uint8_t> short_frame(kVnetHeaderSize - 1, 0);
  EXPECT_EQ(s.split(short_frame), SplitResult::bad_header);
  auto unknown_flag = frame(0x40, kVnetGsoNone, 0, 0, 0, p4);
  EXPECT_EQ(s.split(unknown_flag), SplitResult::bad_header);
  auto udp_gso = frame(0, kVnetGsoUdp, 1000, 0, 0, p4);   // never negotiated
  EXPECT_EQ(s.split(udp_gso), SplitResult::bad_header);
  auto csum_past_end = frame(kVnetFlagNeedsCsum, 0, 0, static_cast<std::uint16_t>(p4.size() - 1), 0, p4);
  EXPECT_EQ(s.split(csum_past_end), SplitResult::bad_header);
  auto csum_offset_past_end = frame(kVnetFlagNeedsCsum, 0, 0, 20, 0xFFFF, p4);
  EXPECT_EQ(s.split(csum_offset_past_end), SplitResult::bad_header);
  EXPECT_EQ(s.count(), 0u);
}

TEST(TunOffload, RejectsGsoPacketsThatDoNotMatchTheirHeader) {
  const auto p4 = tcp4(1, 1, kAck, 0, 3000);
  const auto p6 = tcp6(1, kAck, 0, 3000);
  OffloadSplitter s;
  auto v4_as_v6 = frame(0, kVnetGsoTcpV6, 1000, 0, 0, p4);
  EXPECT_EQ(s.split(v4_as_v6), SplitResult::bad_gso_packet);
  auto v6_as_v4 = frame(0, kVnetGsoTcpV4, 1000, 0, 0, p6);
  EXPECT_EQ(s.split(v6_as_v4), SplitResult::bad_gso_packet);
  auto zero_size = frame(0, kVnetGsoTcpV4, 0, 0, 0, p4);
  EXPECT_EQ(s.split(zero_size), SplitResult::bad_gso_packet);
  auto too_many = frame(0, kVnetGsoTcpV4, 8, 0, 0, p4);   // 375 segments
  EXPECT_EQ(s.split(too_many), SplitResult::bad_gso_packet);
  auto udp = frame(0, kVnetGsoTcpV4, 100, 0, 0,
                   (Tins::IP("10.2.0.2", "10.1.0.2") / Tins::UDP(1, 2) / Tins::RawPDU(payload(0, 500))).serialize());
  EXPECT_EQ(s.split(udp), SplitResult::bad_gso_packet);
  auto cut_tcp = frame(0, kVnetGsoTcpV4, 100, 0, 0, std::vector<std::uint8_t>(p4.begin(), p4.begin() + 30));
  EXPECT_EQ(s.split(cut_tcp), SplitResult::bad_gso_packet);
  auto bad_doff = p4;
  bad_doff[20 + 12] = 0x20;   // 8-byte TCP header
  auto f = frame(0, kVnetGsoTcpV4, 1000, 0, 0, bad_doff);
  EXPECT_EQ(s.split(f), SplitResult::bad_gso_packet);
}

}  // namespace
}  // namespace ncgw::gateway
