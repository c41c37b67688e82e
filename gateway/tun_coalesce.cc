#include "gateway/tun_coalesce.h"

#include <cstring>

#include "gateway/icmp.h"
#include "gateway/tun_offload.h"
#include "transports/common/byte_order.h"

namespace ncgw::gateway {

namespace {

constexpr std::size_t kMaxMerged = 65535;   // an IPv4 total length / IPv6 payload length

using transport::get_be16;
using transport::get_be32;
using transport::put_be16;

bool same(const std::uint8_t* a, const std::uint8_t* b, std::size_t from, std::size_t to) {
  return std::memcmp(a + from, b + from, to - from) == 0;
}

// IP header length of a TCP packet that may be merged (IPv4 without options or fragmentation,
// IPv6 without extension headers, length field equal to the packet's size), or 0.
std::size_t mergeable_ip_header(std::span<const std::uint8_t> p) {
  if (p.size() >= 40 && p[0] == 0x45 && p[9] == kIpProtoTcp && (get_be16(&p[6]) & 0x3FFF) == 0 &&
      get_be16(&p[2]) == p.size()) {
    return 20;
  }
  if (p.size() >= 60 && (p[0] >> 4) == 6 && p[6] == kIpProtoTcp && get_be16(&p[4]) + 40u == p.size()) return 40;
  return 0;
}

// True for TCP flags a merged segment may carry: ACK, and PSH on the last one.
bool data_flags(std::uint8_t flags) { return (flags & ~kTcpPsh) == kTcpAck; }

}  // namespace

TunCoalescer::TunCoalescer() : buf_(kVnetHeaderSize + kMaxMerged) {}

void TunCoalescer::clear() {
  length_ = 0;
  segments_ = 0;
}

bool TunCoalescer::add(std::span<const std::uint8_t> packet) {
  if (empty()) return start(packet);
  if (!continues(packet)) return false;
  const std::size_t payload = packet.size() - headers_;
  std::memcpy(buf_.data() + kVnetHeaderSize + length_, packet.data() + headers_, payload);
  length_ += payload;
  last_payload_ = payload;
  pushed_ = (packet[ip_len_ + 13] & kTcpPsh) != 0;
  ++segments_;
  return true;
}

bool TunCoalescer::start(std::span<const std::uint8_t> packet) {
  const std::size_t ip_len = mergeable_ip_header(packet);
  if (ip_len == 0) return false;
  const std::size_t tcp_len = static_cast<std::size_t>(packet[ip_len + 12] >> 4) * 4;
  if (tcp_len < 20 || ip_len + tcp_len >= packet.size() || !data_flags(packet[ip_len + 13])) return false;
  std::memcpy(buf_.data() + kVnetHeaderSize, packet.data(), packet.size());
  length_ = packet.size();
  ip_len_ = ip_len;
  headers_ = ip_len + tcp_len;
  gso_size_ = last_payload_ = packet.size() - headers_;
  segments_ = 1;
  v6_ = ip_len == 40;
  pushed_ = (packet[ip_len + 13] & kTcpPsh) != 0;
  return true;
}

bool TunCoalescer::continues(std::span<const std::uint8_t> packet) const {
  if (pushed_ || last_payload_ != gso_size_ || segments_ >= kMaxMergedSegments || packet.size() <= headers_) {
    return false;
  }
  const std::size_t payload = packet.size() - headers_;
  if (payload > gso_size_ || length_ + payload > kMaxMerged || mergeable_ip_header(packet) != ip_len_) return false;
  const std::uint8_t* a = buf_.data() + kVnetHeaderSize;
  const std::uint8_t* b = packet.data();
  // IP: all but the lengths, IPv4 id and checksum.
  const bool ip_same = v6_ ? same(a, b, 0, 4) && same(a, b, 6, 40)
                           : same(a, b, 0, 2) && same(a, b, 6, 10) && same(a, b, 12, 20);
  const std::uint8_t* ta = a + ip_len_;
  const std::uint8_t* tb = b + ip_len_;
  // TCP: ports, acknowledgement, header length, window, urgent pointer and options; flags but PSH.
  const bool tcp_same = same(ta, tb, 0, 4) && same(ta, tb, 8, 13) && same(ta, tb, 14, 16) &&
                        same(ta, tb, 18, headers_ - ip_len_) && data_flags(tb[13]);
  const std::uint32_t next_seq = get_be32(ta + 4) + static_cast<std::uint32_t>(length_ - headers_);
  return ip_same && tcp_same && get_be32(tb + 4) == next_seq;
}

std::span<const std::uint8_t> TunCoalescer::frame() {
  std::uint8_t* p = buf_.data() + kVnetHeaderSize;
  VnetHeader h;
  if (segments_ > 1) {
    if (v6_) {
      put_be16(p + 4, static_cast<std::uint16_t>(length_ - 40));
    } else {
      put_be16(p + 2, static_cast<std::uint16_t>(length_));
      put_be16(p + 10, 0);
      put_be16(p + 10, checksum_finish(checksum_add(0, {p, 20})));
    }
    std::uint8_t* tcp = p + ip_len_;
    if (pushed_) tcp[13] |= kTcpPsh;
    // The partial checksum the kernel completes per segment: the folded pseudo-header sum.
    const std::uint32_t sum = tcp_pseudo_header_sum({p, length_}, v6_, length_ - ip_len_);
    put_be16(tcp + 16, static_cast<std::uint16_t>(~checksum_finish(sum)));
    h = {kVnetFlagNeedsCsum, v6_ ? kVnetGsoTcpV6 : kVnetGsoTcpV4, static_cast<std::uint16_t>(headers_),
         static_cast<std::uint16_t>(gso_size_), static_cast<std::uint16_t>(ip_len_), 16};
  }
  write_vnet_header(h, buf_.data());
  return {buf_.data(), kVnetHeaderSize + length_};
}

}  // namespace ncgw::gateway
