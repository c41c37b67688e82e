// ICMP Time Exceeded answers compared byte for byte with the same answer built by libtins, and the
// RFC 1812 / RFC 4443 cases where no answer may be sent; Packet Too Big (RFC 1191 / RFC 4443 3.2)
// read back by libtins.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>

#include "config/prefix.h"
#include "gateway/icmp.h"
#include "packets.h"

namespace ncgw::gateway {
namespace {

using test::icmp4;
using test::udp4;
using test::udp6;

config::IpAddress ip(const char* text) { return *config::parse_ip(text); }

// Index of the first differing byte, or -1 when equal. libtins fills the RFC 4884 "length" byte of
// the unused field (and hence the checksum) for long quotes; RFC 4884 asks for zero when there are
// no extensions, as ncgw writes: those bytes (ICMP offsets 2-7) are checked on their own.
int first_difference(const std::vector<std::uint8_t>& ours, std::vector<std::uint8_t> theirs, std::size_t icmp_at) {
  if (ours.size() != theirs.size()) return static_cast<int>(std::min(ours.size(), theirs.size()));
  for (std::size_t i = 0; i < ours.size(); ++i) {
    if (i >= icmp_at + 2 && i < icmp_at + 8) continue;
    if (ours[i] != theirs[i]) return static_cast<int>(i);
  }
  return -1;
}

// True when ICMP bytes 4-7 (unused) are zero.
bool unused_is_zero(const std::vector<std::uint8_t>& p, std::size_t icmp_at) {
  return p[icmp_at + 4] == 0 && p[icmp_at + 5] == 0 && p[icmp_at + 6] == 0 && p[icmp_at + 7] == 0;
}

// What libtins builds for an ICMPv4 time exceeded from `src` to `dst` quoting `quoted`.
std::vector<std::uint8_t> tins_time_exceeded4(const char* src, const char* dst, std::vector<std::uint8_t> quoted) {
  Tins::IP outer(dst, src);
  outer.ttl(64);
  outer.id(0);
  outer.flags(Tins::IP::Flags(0));
  Tins::ICMP icmp(Tins::ICMP::TIME_EXCEEDED);
  icmp.code(0);
  auto pdu = outer / icmp / Tins::RawPDU(quoted);
  return pdu.serialize();
}

// What libtins builds for an ICMPv6 time exceeded from `src` to `dst` quoting `quoted`.
std::vector<std::uint8_t> tins_time_exceeded6(const char* src, const char* dst, std::vector<std::uint8_t> quoted) {
  Tins::IPv6 outer(dst, src);
  outer.hop_limit(64);
  Tins::ICMPv6 icmp(Tins::ICMPv6::TIME_EXCEEDED);
  icmp.code(0);
  auto pdu = outer / icmp / Tins::RawPDU(quoted);
  return pdu.serialize();
}

TEST(TimeExceeded, Ipv4MatchesLibtins) {
  const auto expired = udp4("10.1.0.2", "10.3.0.2", 1);
  std::array<std::uint8_t, kMaxIcmpAnswer> out{};
  const std::size_t n = build_time_exceeded(expired, ip("10.99.0.2"), out);
  ASSERT_EQ(n, 20 + 8 + expired.size());
  const std::vector<std::uint8_t> ours(out.begin(), out.begin() + n);
  EXPECT_EQ(ours, tins_time_exceeded4("10.99.0.2", "10.1.0.2", expired));
  EXPECT_EQ(checksum_finish(checksum_add(0, {out.data(), 20})), 0);
  EXPECT_EQ(checksum_finish(checksum_add(0, {out.data() + 20, n - 20})), 0);
  const Tins::IP parsed(out.data(), static_cast<std::uint32_t>(n));
  EXPECT_EQ(parsed.src_addr(), Tins::IPv4Address("10.99.0.2"));
  EXPECT_EQ(parsed.dst_addr(), Tins::IPv4Address("10.1.0.2"));
  EXPECT_EQ(parsed.rfind_pdu<Tins::ICMP>().type(), Tins::ICMP::TIME_EXCEEDED);
}

TEST(TimeExceeded, Ipv4QuoteStopsAt576Bytes) {
  const auto expired = udp4("10.1.0.2", "10.3.0.2", 1, 1400);
  std::array<std::uint8_t, kMaxIcmpAnswer> out{};
  const std::size_t n = build_time_exceeded(expired, ip("10.99.0.2"), out);
  ASSERT_EQ(n, 576u);
  const std::vector<std::uint8_t> quoted(expired.begin(), expired.begin() + 548);
  const std::vector<std::uint8_t> ours(out.begin(), out.begin() + n);
  EXPECT_EQ(first_difference(ours, tins_time_exceeded4("10.99.0.2", "10.1.0.2", quoted), 20), -1);
  EXPECT_TRUE(unused_is_zero(ours, 20));
  EXPECT_EQ(checksum_finish(checksum_add(0, {out.data() + 20, n - 20})), 0);
}

TEST(TimeExceeded, Ipv6MatchesLibtins) {
  for (std::size_t payload : {0u, 100u, 1400u}) {
    const auto expired = udp6("fd00:1::2", "fd00:3::2", 1, payload);
    std::array<std::uint8_t, kMaxIcmpAnswer> out{};
    const std::size_t n = build_time_exceeded(expired, ip("fd99::2"), out);
    const std::size_t quoted = std::min<std::size_t>(expired.size(), 1280 - 48);
    ASSERT_EQ(n, 48 + quoted) << payload;
    const std::vector<std::uint8_t> q(expired.begin(), expired.begin() + quoted);
    const std::vector<std::uint8_t> ours(out.begin(), out.begin() + n);
    const auto theirs = tins_time_exceeded6("fd99::2", "fd00:1::2", q);
    EXPECT_EQ(first_difference(ours, theirs, 40), -1) << payload;
    EXPECT_TRUE(unused_is_zero(ours, 40)) << payload;
    if (unused_is_zero(theirs, 40)) EXPECT_EQ(ours, theirs) << payload;   // then byte for byte
    // The checksum over the pseudo-header (addresses, length, next header 58) and the message.
    std::uint32_t sum = checksum_add(0, {out.data() + 8, 32});
    const std::uint8_t tail[8] = {0, 0, static_cast<std::uint8_t>((n - 40) >> 8), static_cast<std::uint8_t>(n - 40), 0, 0, 0, 58};
    sum = checksum_add(sum, tail);
    EXPECT_EQ(checksum_finish(checksum_add(sum, {out.data() + 40, n - 40})), 0) << payload;
  }
}

TEST(TimeExceeded, NoErrorAboutAnIcmpError) {
  std::array<std::uint8_t, kMaxIcmpAnswer> out{};
  EXPECT_EQ(build_time_exceeded(icmp4("10.1.0.2", "10.3.0.2", 1, Tins::ICMP::TIME_EXCEEDED), ip("10.99.0.2"), out), 0u);
  EXPECT_EQ(build_time_exceeded(icmp4("10.1.0.2", "10.3.0.2", 1, Tins::ICMP::DEST_UNREACHABLE), ip("10.99.0.2"), out), 0u);
  EXPECT_GT(build_time_exceeded(icmp4("10.1.0.2", "10.3.0.2", 1, Tins::ICMP::ECHO_REQUEST), ip("10.99.0.2"), out), 0u);
}

TEST(TimeExceeded, NoErrorAboutSpecialAddressesOrLaterFragments) {
  std::array<std::uint8_t, kMaxIcmpAnswer> out{};
  const auto gw = ip("10.99.0.2");
  EXPECT_EQ(build_time_exceeded(udp4("10.1.0.2", "224.0.0.5", 1), gw, out), 0u);
  EXPECT_EQ(build_time_exceeded(udp4("10.1.0.2", "255.255.255.255", 1), gw, out), 0u);
  auto unspecified_source = udp4("10.1.0.2", "10.3.0.2", 1);
  std::fill(unspecified_source.begin() + 12, unspecified_source.begin() + 16, 0);   // libtins would fill 0.0.0.0 in
  EXPECT_EQ(build_time_exceeded(unspecified_source, gw, out), 0u);
  EXPECT_EQ(build_time_exceeded(udp4("127.0.0.1", "10.3.0.2", 1), gw, out), 0u);
  auto fragment = udp4("10.1.0.2", "10.3.0.2", 1);
  fragment[7] = 0x10;   // fragment offset 16 (x 8 bytes): not the first fragment
  EXPECT_EQ(build_time_exceeded(fragment, gw, out), 0u);
  EXPECT_EQ(build_time_exceeded(udp6("fd00:1::2", "ff02::1", 1), ip("fd99::2"), out), 0u);
  EXPECT_EQ(build_time_exceeded(udp6("::", "fd00:3::2", 1), ip("fd99::2"), out), 0u);
}

TEST(TimeExceeded, FamilyMismatchAndSmallBufferGiveNothing) {
  std::array<std::uint8_t, kMaxIcmpAnswer> out{};
  EXPECT_EQ(build_time_exceeded(udp4("10.1.0.2", "10.3.0.2", 1), ip("fd99::2"), out), 0u);
  std::array<std::uint8_t, 60> small{};
  EXPECT_EQ(build_time_exceeded(udp4("10.1.0.2", "10.3.0.2", 1), ip("10.99.0.2"), small), 0u);
}

// An IPv4 UDP packet with Don't Fragment set (as Linux sends TCP with path MTU discovery on).
std::vector<std::uint8_t> udp4_df(const char* src, const char* dst, std::size_t payload) {
  auto p = udp4(src, dst, 64, payload);
  p[6] |= 0x40;
  p[10] = p[11] = 0;
  const std::uint16_t c = checksum_finish(checksum_add(0, {p.data(), 20}));
  p[10] = static_cast<std::uint8_t>(c >> 8);
  p[11] = static_cast<std::uint8_t>(c);
  return p;
}

TEST(PacketTooBig, Ipv4FragmentationNeededCarriesTheMtu) {
  const auto big = udp4_df("10.1.0.2", "10.3.0.2", 1400);
  ASSERT_TRUE(must_not_fragment(big));
  std::array<std::uint8_t, kMaxIcmpAnswer> out{};
  const std::size_t n = build_icmp_error(IcmpError::packet_too_big, big, ip("10.99.0.2"), 1304, out);
  ASSERT_EQ(n, 576u);
  EXPECT_EQ(checksum_finish(checksum_add(0, {out.data(), 20})), 0);
  EXPECT_EQ(checksum_finish(checksum_add(0, {out.data() + 20, n - 20})), 0);
  const Tins::IP parsed(out.data(), static_cast<std::uint32_t>(n));
  EXPECT_EQ(parsed.dst_addr(), Tins::IPv4Address("10.1.0.2"));
  const auto& icmp = parsed.rfind_pdu<Tins::ICMP>();
  EXPECT_EQ(icmp.type(), Tins::ICMP::DEST_UNREACHABLE);
  EXPECT_EQ(icmp.code(), 4);
  EXPECT_EQ(out[24], 0);   // unused
  EXPECT_EQ(out[25], 0);
  EXPECT_EQ((out[26] << 8) | out[27], 1304);   // next-hop MTU
  EXPECT_TRUE(std::equal(big.begin(), big.begin() + 548, out.begin() + 28));
}

TEST(PacketTooBig, Ipv6PacketTooBigCarriesTheMtu) {
  const auto big = udp6("fd00:1::2", "fd00:3::2", 64, 1400);
  ASSERT_TRUE(must_not_fragment(big));
  std::array<std::uint8_t, kMaxIcmpAnswer> out{};
  const std::size_t n = build_icmp_error(IcmpError::packet_too_big, big, ip("fd99::2"), 1284, out);
  ASSERT_EQ(n, 1280u);
  const Tins::IPv6 parsed(out.data(), static_cast<std::uint32_t>(n));
  EXPECT_EQ(parsed.dst_addr(), Tins::IPv6Address("fd00:1::2"));
  const auto& icmp = parsed.rfind_pdu<Tins::ICMPv6>();
  EXPECT_EQ(icmp.type(), Tins::ICMPv6::PACKET_TOOBIG);
  EXPECT_EQ(icmp.code(), 0);
  EXPECT_EQ((std::uint32_t{out[44]} << 24) | (out[45] << 16) | (out[46] << 8) | out[47], 1284u);
  std::uint32_t sum = checksum_add(0, {out.data() + 8, 32});
  const std::uint8_t tail[8] = {0, 0, static_cast<std::uint8_t>((n - 40) >> 8), static_cast<std::uint8_t>(n - 40), 0, 0, 0, 58};
  sum = checksum_add(sum, tail);
  EXPECT_EQ(checksum_finish(checksum_add(sum, {out.data() + 40, n - 40})), 0);
}

TEST(PacketTooBig, OnlyAboutPacketsThatMustNotBeFragmented) {
  EXPECT_FALSE(must_not_fragment(udp4("10.1.0.2", "10.3.0.2", 64, 1400)));   // no DF: may be fragmented
  EXPECT_TRUE(must_not_fragment(udp4_df("10.1.0.2", "10.3.0.2", 1400)));
  EXPECT_TRUE(must_not_fragment(udp6("fd00:1::2", "fd00:3::2", 64, 10)));
  EXPECT_FALSE(must_not_fragment({}));
}

}  // namespace
}  // namespace ncgw::gateway
