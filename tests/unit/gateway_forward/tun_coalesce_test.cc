// TCP segments merged into one TUN frame (virtio_net_hdr with GSO) and cut again by the splitter
// into exactly the libtins-built segments they came from; what must not be merged is refused.
#include <tins/tins.h>

#include <gtest/gtest.h>

#include <vector>

#include "gateway/tun_coalesce.h"
#include "gateway/tun_offload.h"

namespace ncgw::gateway {
namespace {

constexpr std::uint8_t kAck = Tins::TCP::ACK, kPsh = Tins::TCP::PSH, kSyn = Tins::TCP::SYN;

// Segment of a test flow: `size` payload bytes at stream offset `offset`, sequence 9000 + offset.
struct Seg {
  std::size_t offset, size;
  std::uint8_t flags = kAck;
  std::uint16_t sport = 50000;
  std::uint32_t tsval = 11;
};

Tins::TCP tcp_of(const Seg& s) {
  Tins::TCP tcp(443, s.sport);
  tcp.seq(9000 + static_cast<std::uint32_t>(s.offset));
  tcp.ack_seq(5);
  tcp.window(512);
  tcp.flags(s.flags);
  tcp.timestamp(s.tsval, 22);
  return tcp;
}

std::vector<std::uint8_t> data(const Seg& s) {
  std::vector<std::uint8_t> d(s.size);
  for (std::size_t i = 0; i < s.size; ++i) d[i] = static_cast<std::uint8_t>((s.offset + i) * 31);
  return d;
}

std::vector<std::uint8_t> v4(const Seg& s, std::uint16_t id) {
  Tins::IP ip("10.1.0.2", "10.2.0.2");
  ip.id(id);
  ip.flags(Tins::IP::DONT_FRAGMENT);
  return (ip / tcp_of(s) / Tins::RawPDU(data(s))).serialize();
}

std::vector<std::uint8_t> v6(const Seg& s) {
  return (Tins::IPv6("fd00:1::2", "fd00:2::2") / tcp_of(s) / Tins::RawPDU(data(s))).serialize();
}

std::vector<std::uint8_t> bytes(std::span<const std::uint8_t> s) { return {s.begin(), s.end()}; }

// Merges `packets` (all must be taken), cuts the frame again and expects the same packets back.
void expect_round_trip(const std::vector<std::vector<std::uint8_t>>& packets, std::uint8_t gso_type) {
  TunCoalescer c;
  for (const auto& p : packets) ASSERT_TRUE(c.add(p));
  ASSERT_EQ(c.segments(), packets.size());
  std::vector<std::uint8_t> frame = bytes(c.frame());
  const VnetHeader h = read_vnet_header(frame.data());
  EXPECT_EQ(h.gso_type, gso_type);
  EXPECT_EQ(h.flags, kVnetFlagNeedsCsum);
  EXPECT_EQ(h.gso_size, 1000);
  // The TCP checksum field holds the partial sum the kernel completes: completing it over the
  // merged packet gives that packet's full checksum.
  std::vector<std::uint8_t> completed(frame.begin() + kVnetHeaderSize, frame.end());
  std::vector<std::uint8_t> computed = completed;
  ASSERT_TRUE(complete_partial_checksum(completed, h.csum_start, h.csum_offset));
  ASSERT_TRUE(write_tcp_checksum(computed));
  EXPECT_EQ(completed, computed);
  OffloadSplitter s;
  ASSERT_EQ(s.split(frame), SplitResult::segmented);
  ASSERT_EQ(s.count(), packets.size());
  for (std::size_t i = 0; i < packets.size(); ++i) EXPECT_EQ(bytes(s.segment(i)), packets[i]) << "segment " << i;
}

TEST(TunCoalesce, MergesAnIpv4FlowThatTheSplitterCutsBackExactly) {
  expect_round_trip({v4({0, 1000}, 100), v4({1000, 1000}, 101), v4({2000, 1000}, 102),
                     v4({3000, 500, kAck | kPsh}, 103)},
                    kVnetGsoTcpV4);
}

TEST(TunCoalesce, MergesAnIpv6Flow) {
  expect_round_trip({v6({0, 1000}), v6({1000, 1000}), v6({2000, 1})}, kVnetGsoTcpV6);
}

TEST(TunCoalesce, OneSegmentIsWrittenAsItCame) {
  TunCoalescer c;
  const auto p = v4({0, 700}, 1);
  ASSERT_TRUE(c.add(p));
  const auto frame = bytes(c.frame());
  EXPECT_EQ(std::vector<std::uint8_t>(frame.begin(), frame.begin() + kVnetHeaderSize),
            std::vector<std::uint8_t>(kVnetHeaderSize, 0));
  EXPECT_EQ(std::vector<std::uint8_t>(frame.begin() + kVnetHeaderSize, frame.end()), p);
}

TEST(TunCoalesce, RefusesWhatIsNotAPlainDataSegment) {
  TunCoalescer c;
  EXPECT_FALSE(c.add(v4({0, 0}, 1)));                  // pure ACK, no payload
  EXPECT_FALSE(c.add(v4({0, 100, kSyn | kAck}, 1)));   // SYN
  EXPECT_FALSE(c.add((Tins::IP("10.1.0.2", "10.2.0.2") / Tins::UDP(1, 2) / Tins::RawPDU(std::vector<std::uint8_t>(100))).serialize()));
  auto cut = v4({0, 100}, 1);
  cut.pop_back();                                      // length field larger than the packet
  EXPECT_FALSE(c.add(cut));
  EXPECT_TRUE(c.empty());
}

TEST(TunCoalesce, RefusesWhatDoesNotContinueTheFlow) {
  const auto first = v4({0, 1000}, 1);
  const std::vector<std::pair<const char*, std::vector<std::uint8_t>>> cases{
      {"other port", v4({1000, 1000, kAck, 50001}, 2)},
      {"sequence gap", v4({1001, 1000}, 2)},
      {"larger payload", v4({1000, 1001}, 2)},
      {"other options", v4({1000, 1000, kAck, 50000, 12}, 2)},
      {"other family", v6({1000, 1000})},
  };
  for (const auto& [what, next] : cases) {
    TunCoalescer c;
    ASSERT_TRUE(c.add(first));
    EXPECT_FALSE(c.add(next)) << what;
    EXPECT_EQ(c.segments(), 1u) << what;
  }
  TunCoalescer after_short;
  ASSERT_TRUE(after_short.add(first));
  ASSERT_TRUE(after_short.add(v4({1000, 10}, 2)));
  EXPECT_FALSE(after_short.add(v4({1010, 10}, 3)));     // a shorter segment ends the frame
  TunCoalescer after_push;
  ASSERT_TRUE(after_push.add(first));
  ASSERT_TRUE(after_push.add(v4({1000, 1000, kAck | kPsh}, 2)));
  EXPECT_FALSE(after_push.add(v4({2000, 1000}, 3)));    // PSH ends the frame
}

TEST(TunCoalesce, StopsAt64KiB) {
  TunCoalescer c;
  std::size_t taken = 0;
  while (c.add(v4({taken * 1400, 1400}, static_cast<std::uint16_t>(taken)))) ++taken;
  EXPECT_EQ(taken, 46u);   // 20 + 32 + 46 x 1400 <= 65535 < 20 + 32 + 47 x 1400
  c.clear();
  EXPECT_TRUE(c.empty());
}

TEST(TunCoalesce, StopsAt64Segments) {
  TunCoalescer c;
  std::size_t taken = 0;
  while (c.add(v4({taken * 100, 100}, static_cast<std::uint16_t>(taken)))) ++taken;
  EXPECT_EQ(taken, kMaxMergedSegments);
}

}  // namespace
}  // namespace ncgw::gateway
