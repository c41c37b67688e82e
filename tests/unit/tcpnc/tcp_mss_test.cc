// MSS clamping: a SYN's MSS option is lowered in place and its TCP checksum stays valid (checked by
// recomputing it over the pseudo header), wherever the option sits; everything else is left alone.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <vector>

#include "transports/common/byte_order.h"
#include "transports/common/inet_checksum.h"
#include "transports/common/tcp_mss.h"

namespace ncgw::transport {
namespace {

using Bytes = std::vector<std::uint8_t>;

// The TCP checksum of `p` over its pseudo header, computed from scratch (0 when it is valid and
// the stored one is included).
std::uint16_t tcp_checksum(const Bytes& p, bool v6) {
  const std::size_t ip = v6 ? 40 : 20;
  const std::size_t len = p.size() - ip;
  std::uint32_t sum = v6 ? checksum_add(0, std::span(p).subspan(8, 32)) : checksum_add(0, std::span(p).subspan(12, 8));
  sum += 6 + static_cast<std::uint32_t>(len);
  return checksum_finish(checksum_add(sum, std::span(p).subspan(ip)));
}

// A SYN with `options` (padded with NOPs to whole words) and a valid TCP checksum.
Bytes syn(bool v6, Bytes options, std::uint8_t flags = 0x02) {
  while (options.size() % 4) options.insert(options.begin(), 1);
  const std::size_t ip = v6 ? 40 : 20, tcp = 20 + options.size();
  Bytes p(ip + tcp);
  if (v6) {
    p[0] = 0x60;
    put_be16(p.data() + 4, static_cast<std::uint16_t>(tcp));
    p[6] = 6, p[7] = 64, p[8] = 0xfd, p[23] = 1, p[24] = 0xfd, p[39] = 2;
  } else {
    p[0] = 0x45;
    put_be16(p.data() + 2, static_cast<std::uint16_t>(p.size()));
    p[6] = 0x40, p[8] = 64, p[9] = 6;
    p[12] = 10, p[15] = 1, p[16] = 10, p[19] = 2;
  }
  std::uint8_t* t = p.data() + ip;
  put_be16(t, 40000);
  put_be16(t + 2, 80);
  put_be32(t + 4, 0x12345678);
  t[12] = static_cast<std::uint8_t>(tcp / 4 << 4);
  t[13] = flags;
  put_be16(t + 14, 64240);
  std::copy(options.begin(), options.end(), t + 20);
  put_be16(t + 16, tcp_checksum(p, v6));
  return p;
}

// Linux's SYN options: MSS, SACK permitted, timestamps, NOP, window scale.
Bytes linux_options(std::uint16_t mss) {
  return {2, 4, static_cast<std::uint8_t>(mss >> 8), static_cast<std::uint8_t>(mss & 0xFF), 4, 2, 8, 10, 1, 2, 3, 4,
          5, 6, 7, 8, 1, 3, 3, 7};
}

TEST(TcpMss, ASynIsClampedAndItsChecksumStaysValid) {
  for (const bool v6 : {false, true}) {
    Bytes p = syn(v6, linux_options(1460));
    EXPECT_EQ(syn_mss(p), 1460);
    EXPECT_TRUE(clamp_syn_mss(p, 1388));
    EXPECT_EQ(syn_mss(p), 1388);
    EXPECT_EQ(tcp_checksum(p, v6), 0) << v6;
  }
}

TEST(TcpMss, AnOptionAtAnOddOffsetKeepsTheChecksumValid) {
  // A NOP before the MSS option puts its value at an odd offset; the rest pads to a word.
  Bytes p = syn(false, {1, 2, 4, 0x05, 0xB4, 1, 1, 1});
  ASSERT_EQ(syn_mss(p), 1460);
  EXPECT_TRUE(clamp_syn_mss(p, 1001));  // 0x03E9: both bytes change
  EXPECT_EQ(syn_mss(p), 1001);
  EXPECT_EQ(tcp_checksum(p, false), 0);
}

TEST(TcpMss, WhatNeedsNoClampIsLeftAlone) {
  const Bytes small = syn(false, linux_options(1200));
  Bytes p = small;
  EXPECT_FALSE(clamp_syn_mss(p, 1388));
  EXPECT_EQ(p, small);
  Bytes not_syn = syn(false, linux_options(1460), 0x10);  // an ACK carrying the option bytes
  EXPECT_EQ(syn_mss(not_syn), 0);
  EXPECT_FALSE(clamp_syn_mss(not_syn, 1388));
  Bytes no_option = syn(false, {1, 1, 1, 1});
  EXPECT_EQ(syn_mss(no_option), 0);
  Bytes udp = syn(false, linux_options(1460));
  udp[9] = 17;
  EXPECT_EQ(syn_mss(udp), 0);
}

TEST(TcpMss, MalformedOptionsAndShortPacketsAreSafe) {
  Bytes p = syn(false, linux_options(1460));
  p.resize(p.size() - 10);  // the header claims more options than the packet holds
  EXPECT_EQ(syn_mss(p), 0);
  Bytes zero_length = syn(false, {8, 0, 2, 4, 5, 180, 0, 0});  // an option of length 0
  EXPECT_EQ(syn_mss(zero_length), 0);
  Bytes tiny(12, 0x45);
  EXPECT_EQ(syn_mss(tiny), 0);
  EXPECT_FALSE(clamp_syn_mss(tiny, 100));
}

}  // namespace
}  // namespace ncgw::transport
