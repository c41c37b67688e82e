#include "transports/tcpnc/packet.h"

#include <algorithm>

#include "transports/common/byte_order.h"

namespace ncgw::tcpnc {

using transport::get_be16;
using transport::get_be24;
using transport::get_be32;
using transport::get_be64;
using transport::put_be16;
using transport::put_be24;
using transport::put_be32;
using transport::put_be64;

std::optional<PacketType> peek_type(std::span<const std::uint8_t> d) {
  if (d.empty() || (d[kOffVersionType] >> 4) != kVersion) return std::nullopt;
  return static_cast<PacketType>(d[kOffVersionType] & 0x0F);
}

std::optional<CommonHeader> parse_common(std::span<const std::uint8_t> d) {
  const std::optional<PacketType> type = peek_type(d);
  if (d.size() < kCommonHeaderSize || !type) return std::nullopt;
  if (*type < PacketType::kData || *type > PacketType::kDataAck) return std::nullopt;
  CommonHeader h;
  h.type = *type;
  h.src_session = get_be32(d.data() + kOffSrcSession);
  h.dst_session = get_be32(d.data() + kOffDstSession);
  if (h.src_session == 0) return std::nullopt;
  return h;
}

void set_type(std::span<std::uint8_t> out, PacketType type) {
  out[kOffVersionType] = static_cast<std::uint8_t>(kVersion << 4 | static_cast<std::uint8_t>(type));
}

std::size_t write_common(std::span<std::uint8_t> out, const CommonHeader& h) {
  if (out.size() < kCommonHeaderSize) return 0;
  set_type(out, h.type);
  put_be32(out.data() + kOffSrcSession, h.src_session);
  put_be32(out.data() + kOffDstSession, h.dst_session);
  return kCommonHeaderSize;
}

std::size_t write_data_header(std::span<std::uint8_t> out, const CommonHeader& h, const DataHeader& d) {
  if (out.size() < kDataHeaderSize || write_common(out, h) == 0) return 0;
  put_be24(out.data() + kOffDataTx, static_cast<std::uint32_t>(d.tx));
  return kDataHeaderSize;
}

std::optional<DataHeader> parse_data(std::span<const std::uint8_t> d, std::span<const std::uint8_t>& coded) {
  if (d.size() < kDataHeaderSize) return std::nullopt;
  DataHeader h;
  h.tx = get_be24(d.data() + kOffDataTx);
  coded = d.subspan(kDataHeaderSize);
  return h;
}

namespace {

// Checks that ranges are descending, disjoint and non-adjacent, with ranges[0].largest == largest.
bool ranges_valid(const AckFrame& a) {
  if (a.range_count == 0 || a.range_count > kMaxAckRanges + 1) return false;
  if (a.ranges[0].largest != a.largest) return false;
  for (std::size_t i = 0; i < a.range_count; ++i) {
    if (a.ranges[i].smallest > a.ranges[i].largest) return false;
    if (i > 0 && a.ranges[i].largest + 2 > a.ranges[i - 1].smallest) return false;
  }
  return true;
}

}  // namespace

std::size_t write_ack(std::span<std::uint8_t> out, const CommonHeader& h, const AckFrame& a) {
  if (a.cw_count > kMaxAckCws || !ranges_valid(a)) return 0;
  const std::size_t size = kAckFixedSize + a.cw_count * kAckCwEntrySize + (a.range_count - 1) * kAckRangeSize;
  if (out.size() < size || write_common(out, h) == 0) return 0;
  std::uint8_t* p = out.data();
  put_be64(p + kOffAckSeen, a.seen);
  put_be64(p + kOffAckLargest, a.largest);
  put_be32(p + kOffAckDelay, a.ack_delay_us);
  put_be32(p + kOffAckFirstCw, a.first_cw);
  p[kOffAckCwCount] = a.cw_count;
  p[kOffAckRangeCount] = static_cast<std::uint8_t>(a.range_count - 1);
  const std::uint64_t first_len = a.ranges[0].largest - a.ranges[0].smallest;
  if (first_len > 0xFFFF) return 0;
  put_be16(p + kOffAckFirstRange, static_cast<std::uint16_t>(first_len));
  std::size_t off = kAckFixedSize;
  for (std::size_t i = 0; i < a.cw_count; ++i, off += kAckCwEntrySize) {
    p[off] = a.cws[i].rank;
    p[off + 1] = a.cws[i].flags;
  }
  for (std::size_t i = 1; i < a.range_count; ++i, off += kAckRangeSize) {
    const std::uint64_t gap = a.ranges[i - 1].smallest - a.ranges[i].largest - 2;
    const std::uint64_t len = a.ranges[i].largest - a.ranges[i].smallest;
    if (gap > 0xFFFF || len > 0xFFFF) return 0;
    put_be16(p + off, static_cast<std::uint16_t>(gap));
    put_be16(p + off + 2, static_cast<std::uint16_t>(len));
  }
  return size;
}

std::optional<AckFrame> parse_ack(std::span<const std::uint8_t> d) {
  if (d.size() < kAckFixedSize) return std::nullopt;
  return parse_ack_body(d.subspan(kCommonHeaderSize));
}

std::optional<AckFrame> parse_ack_body(std::span<const std::uint8_t> body) {
  if (body.size() < kAckBodyMinSize) return std::nullopt;
  // Offsets in wire.h count from the datagram's start; the body starts kCommonHeaderSize later.
  const std::uint8_t* b = body.data();
  auto p = [b](std::size_t off) { return b + (off - kCommonHeaderSize); };
  AckFrame a;
  a.seen = get_be64(p(kOffAckSeen));
  a.largest = get_be64(p(kOffAckLargest));
  a.ack_delay_us = get_be32(p(kOffAckDelay));
  a.first_cw = get_be32(p(kOffAckFirstCw));
  a.cw_count = *p(kOffAckCwCount);
  const std::size_t extra = *p(kOffAckRangeCount);
  if (a.cw_count > kMaxAckCws || extra > kMaxAckRanges) return std::nullopt;
  if (body.size() < kAckBodyMinSize + a.cw_count * kAckCwEntrySize + extra * kAckRangeSize) return std::nullopt;
  const std::uint64_t first_len = get_be16(p(kOffAckFirstRange));
  if (first_len > a.largest) return std::nullopt;
  a.ranges[0] = {a.largest - first_len, a.largest};
  std::size_t off = kAckFixedSize;
  for (std::size_t i = 0; i < a.cw_count; ++i, off += kAckCwEntrySize) a.cws[i] = {*p(off), *p(off + 1)};
  for (std::size_t i = 1; i <= extra; ++i, off += kAckRangeSize) {
    const std::uint64_t gap = get_be16(p(off)), len = get_be16(p(off + 2));
    const std::uint64_t prev_small = a.ranges[i - 1].smallest;
    if (prev_small < gap + 2 + len) return std::nullopt;  // would underflow below 0
    const std::uint64_t largest = prev_small - gap - 2;
    a.ranges[i] = {largest - len, largest};
  }
  a.range_count = static_cast<std::uint8_t>(extra + 1);
  return a;
}

std::size_t append_ack(std::span<std::uint8_t> out, std::size_t data_size, std::span<const std::uint8_t> ack) {
  if (ack.size() < kAckFixedSize || data_size < kDataHeaderSize) return 0;
  const auto ack_body = ack.subspan(kCommonHeaderSize);
  const std::size_t size = data_size + ack_body.size() + kAckTrailerSize;
  if (size > out.size() || ack_body.size() > 0xFFFF) return 0;
  std::copy(ack_body.begin(), ack_body.end(), out.begin() + static_cast<std::ptrdiff_t>(data_size));
  put_be16(out.data() + size - kAckTrailerSize, static_cast<std::uint16_t>(ack_body.size()));
  set_type(out, PacketType::kDataAck);
  return size;
}

std::optional<DataAckParts> split_data_ack(std::span<const std::uint8_t> d) {
  if (d.size() < kDataHeaderSize + kAckBodyMinSize + kAckTrailerSize) return std::nullopt;
  const std::size_t body = get_be16(d.data() + d.size() - kAckTrailerSize);
  if (body < kAckBodyMinSize || body > d.size() - kAckTrailerSize - kDataHeaderSize) return std::nullopt;
  const std::size_t data_size = d.size() - kAckTrailerSize - body;
  return DataAckParts{d.first(data_size), d.subspan(data_size, body)};
}

std::size_t write_hello(std::span<std::uint8_t> out, const CommonHeader& h, const Hello& body) {
  if (out.size() < kHelloSize || write_common(out, h) == 0) return 0;
  put_be32(out.data() + kOffHelloVersion, body.version);
  put_be16(out.data() + kOffHelloMaxPacket, body.max_packet);
  out[kOffHelloMaxN] = body.max_n;
  out[kOffHelloMaxOpen] = body.max_open;
  out[kOffHelloFlags] = body.flags;
  return kHelloSize;
}

std::optional<Hello> parse_hello(std::span<const std::uint8_t> d) {
  if (d.size() < kHelloSize) return std::nullopt;
  Hello h;
  h.version = get_be32(d.data() + kOffHelloVersion);
  h.max_packet = get_be16(d.data() + kOffHelloMaxPacket);
  h.max_n = d[kOffHelloMaxN];
  h.max_open = d[kOffHelloMaxOpen];
  h.flags = d[kOffHelloFlags];
  if (h.version != kVersion || h.max_n == 0 || h.max_open == 0 || h.max_packet == 0) return std::nullopt;
  return h;
}

}  // namespace ncgw::tcpnc
