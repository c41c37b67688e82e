#include "gateway/tun_offload.h"

#include <algorithm>
#include <cstring>

#include "gateway/icmp.h"
#include "transports/common/byte_order.h"

namespace ncgw::gateway {

namespace {

// Largest IPv4 header plus largest TCP header: the bytes copied in front of every segment.
constexpr std::size_t kMaxHeaders = 60 + 60;

using transport::get_be16;
using transport::get_be32;
using transport::put_be16;
using transport::put_be32;

// Length of the IP header of a TCP packet without IPv6 extension headers, or 0.
std::size_t tcp_ip_header_length(std::span<const std::uint8_t> p, bool v6) {
  if (v6) return p.size() >= 40 && (p[0] >> 4) == 6 && p[6] == kIpProtoTcp ? 40 : 0;
  if (p.size() < 20 || (p[0] >> 4) != 4 || p[9] != kIpProtoTcp) return 0;
  const std::size_t ihl = std::size_t{p[0] & 0x0Fu} * 4;
  return ihl >= 20 && ihl <= p.size() ? ihl : 0;
}

// Writes the per-segment fields of segment `index` of `count` (header copy already in place).
void fix_segment_headers(std::uint8_t* seg, std::size_t ip_len, std::size_t tcp_len, std::size_t payload,
                         bool v6, std::size_t index, std::size_t count, std::uint32_t seq) {
  if (v6) {
    put_be16(seg + 4, static_cast<std::uint16_t>(tcp_len + payload));
  } else {
    put_be16(seg + 2, static_cast<std::uint16_t>(ip_len + tcp_len + payload));
    put_be16(seg + 4, static_cast<std::uint16_t>(get_be16(seg + 4) + index));   // IP id, one per segment
    put_be16(seg + 10, 0);
    put_be16(seg + 10, checksum_finish(checksum_add(0, {seg, ip_len})));
  }
  std::uint8_t* tcp = seg + ip_len;
  put_be32(tcp + 4, seq);
  if (index + 1 < count) tcp[13] &= static_cast<std::uint8_t>(~(kTcpFin | kTcpPsh));
  if (index > 0) tcp[13] &= static_cast<std::uint8_t>(~kTcpCwr);
}

// A host-order 16-bit field of the virtio_net_hdr.
std::uint16_t host16(const std::uint8_t* p) {
  std::uint16_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace

VnetHeader read_vnet_header(const std::uint8_t* p) {
  return {p[0], p[1], host16(p + 2), host16(p + 4), host16(p + 6), host16(p + 8)};
}

void write_vnet_header(const VnetHeader& h, std::uint8_t* p) {
  p[0] = h.flags;
  p[1] = h.gso_type;
  const std::uint16_t fields[4] = {h.hdr_len, h.gso_size, h.csum_start, h.csum_offset};
  std::memcpy(p + 2, fields, sizeof fields);
}

bool complete_partial_checksum(std::span<std::uint8_t> packet, std::size_t start, std::size_t offset) {
  if (start > packet.size() || offset + 2 > packet.size() - start) return false;
  std::uint16_t sum = checksum_finish(checksum_add(0, packet.subspan(start)));
  if (sum == 0) sum = 0xFFFF;   // as the kernel writes a folded zero (CSUM_MANGLED_0)
  put_be16(packet.data() + start + offset, sum);
  return true;
}

bool write_tcp_checksum(std::span<std::uint8_t> packet) {
  if (packet.empty()) return false;
  const bool v6 = (packet[0] >> 4) == 6;
  const std::size_t ip_len = tcp_ip_header_length(packet, v6);
  if (ip_len == 0 || packet.size() < ip_len + 20) return false;
  std::uint8_t* tcp = packet.data() + ip_len;
  put_be16(tcp + 16, 0);
  const std::uint32_t sum = tcp_pseudo_header_sum(packet, v6, packet.size() - ip_len);
  put_be16(tcp + 16, checksum_finish(checksum_add(sum, packet.subspan(ip_len))));
  return true;
}

std::uint32_t tcp_pseudo_header_sum(std::span<const std::uint8_t> packet, bool v6, std::size_t tcp_length) {
  std::uint32_t sum = v6 ? checksum_add(0, packet.subspan(8, 32)) : checksum_add(0, packet.subspan(12, 8));
  return sum + kIpProtoTcp + static_cast<std::uint32_t>(tcp_length >> 16) + static_cast<std::uint32_t>(tcp_length & 0xFFFF);
}

OffloadSplitter::OffloadSplitter() : out_(65535 + kMaxSegments * kMaxHeaders) {}

SplitResult OffloadSplitter::split(std::span<std::uint8_t> frame) {
  count_ = 0;
  if (frame.size() < kVnetHeaderSize) return SplitResult::bad_header;
  const VnetHeader h = read_vnet_header(frame.data());
  std::span<std::uint8_t> packet = frame.subspan(kVnetHeaderSize);
  const std::uint8_t known_flags = kVnetFlagNeedsCsum | kVnetFlagDataValid;
  if ((h.flags & ~known_flags) != 0) return SplitResult::bad_header;
  const std::uint8_t gso = h.gso_type & static_cast<std::uint8_t>(~kVnetGsoEcn);
  if (gso == kVnetGsoTcpV4 || gso == kVnetGsoTcpV6) {
    if (h.gso_size == 0) return SplitResult::bad_gso_packet;
    return split_tcp(packet, h.gso_size, gso == kVnetGsoTcpV6);
  }
  if (gso != kVnetGsoNone) return SplitResult::bad_header;
  if ((h.flags & kVnetFlagNeedsCsum) && !complete_partial_checksum(packet, h.csum_start, h.csum_offset)) {
    return SplitResult::bad_header;
  }
  segments_[0] = packet;
  count_ = 1;
  return SplitResult::packet;
}

SplitResult OffloadSplitter::split_tcp(std::span<const std::uint8_t> packet, std::size_t gso_size, bool v6) {
  const std::size_t ip_len = tcp_ip_header_length(packet, v6);
  if (ip_len == 0 || packet.size() < ip_len + 20) return SplitResult::bad_gso_packet;
  const std::size_t tcp_len = static_cast<std::size_t>(packet[ip_len + 12] >> 4) * 4;
  const std::size_t headers = ip_len + tcp_len;
  if (tcp_len < 20 || headers > packet.size()) return SplitResult::bad_gso_packet;
  const std::size_t payload = packet.size() - headers;
  const std::size_t count = std::max<std::size_t>(1, (payload + gso_size - 1) / gso_size);
  if (count > kMaxSegments || payload + count * headers > out_.size()) return SplitResult::bad_gso_packet;
  const std::uint32_t seq0 = get_be32(packet.data() + ip_len + 4);
  std::uint8_t* at = out_.data();
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t offset = i * gso_size;
    const std::size_t len = std::min(gso_size, payload - std::min(payload, offset));
    std::memcpy(at, packet.data(), headers);
    std::memcpy(at + headers, packet.data() + headers + offset, len);
    fix_segment_headers(at, ip_len, tcp_len, len, v6, i, count, seq0 + static_cast<std::uint32_t>(offset));
    std::span<std::uint8_t> seg{at, headers + len};
    write_tcp_checksum(seg);
    segments_[i] = seg;
    at += seg.size();
  }
  count_ = count;
  return count == 1 ? SplitResult::packet : SplitResult::segmented;
}

}  // namespace ncgw::gateway
