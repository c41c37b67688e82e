#include "transports/tcpnc/header_compression.h"

#include <algorithm>
#include <bit>

#include "transports/common/byte_order.h"
#include "transports/common/flow_key.h"
#include "transports/common/inet_checksum.h"

namespace ncgw::tcpnc {
namespace {

using transport::get_be16;
using transport::get_be32;
using transport::put_be16;
using transport::put_be32;

constexpr std::uint8_t kProtoTcp = 6;
constexpr std::uint8_t kProtoUdp = 17;
constexpr std::size_t kIpv4MinHeader = 20;
constexpr std::size_t kIpv6Header = 40;
constexpr std::size_t kTcpMinHeader = 20;
constexpr std::size_t kUdpHeader = 8;
constexpr std::size_t kBitmapBytes = (kHcMaxHeader + 7) / 8;  // one bit per header byte
constexpr std::size_t kMaskBytes = (kBitmapBytes + 7) / 8;    // one bit per bitmap byte
static_assert(60 + 60 <= kHcMaxHeader, "IPv4 and TCP headers with full options fit a context");

// Where a header's transport part starts and what it is. Valid for any header a context holds
// (those come from packets inner_header_length accepted).
struct Layout {
  bool v4;
  std::size_t transport;
  std::uint8_t protocol;
};

Layout layout_of(const std::uint8_t* h) {
  if ((h[0] >> 4) == 4) return {true, std::size_t{(h[0] & 0x0Fu) * 4u}, h[9]};
  return {false, kIpv6Header, h[6]};
}

// Length of a TCP or UDP header at `t`; 0 for other protocols or when it does not fit.
std::size_t transport_header_length(std::span<const std::uint8_t> p, std::size_t t, std::uint8_t protocol) {
  if (protocol == kProtoTcp && p.size() >= t + kTcpMinHeader) {
    const std::size_t data_offset = (p[t + 12] >> 4) * 4u;
    if (data_offset >= kTcpMinHeader && p.size() >= t + data_offset) return data_offset;
  }
  if (protocol == kProtoUdp && p.size() >= t + kUdpHeader) return kUdpHeader;
  return 0;
}

// Whether header byte `i` stays out of the changes: the IPv4 header checksum, recomputed.
bool excluded(bool v4, std::size_t i) { return v4 && (i == 10 || i == 11); }

bool bit(const std::uint8_t* bits, std::size_t i) { return (bits[i / 8] & (0x80u >> (i % 8))) != 0; }
void set_bit(std::uint8_t* bits, std::size_t i) { bits[i / 8] |= static_cast<std::uint8_t>(0x80u >> (i % 8)); }

// Writes the header context `c` predicts for a packet of `total` bytes to p[0..c.length).
void predict(const HcContext& c, std::size_t total, std::uint8_t* p) {
  std::copy_n(c.header.begin(), c.length, p);
  const Layout l = layout_of(p);
  if (l.v4) {
    put_be16(p + 2, static_cast<std::uint16_t>(total));
    put_be16(p + 4, static_cast<std::uint16_t>(get_be16(p + 4) + 1));
  } else {
    put_be16(p + 4, static_cast<std::uint16_t>(total - kIpv6Header));
  }
  if (l.protocol == kProtoTcp && c.length >= l.transport + kTcpMinHeader)
    put_be32(p + l.transport + 4, get_be32(p + l.transport + 4) + c.payload);
  else if (l.protocol == kProtoUdp && c.length == l.transport + kUdpHeader)
    put_be16(p + l.transport + 4, static_cast<std::uint16_t>(total - l.transport));
}

// Whether an IPv4 header's checksum is right (IPv6 has none), so the receiver may recompute it.
bool header_checksum_ok(std::span<const std::uint8_t> packet) {
  const Layout l = layout_of(packet.data());
  return !l.v4 || transport::checksum_finish(transport::checksum_add(0, packet.first(l.transport))) == 0;
}

// Makes `header` bytes of `packet` the context's header.
void adopt(HcContext& c, std::span<const std::uint8_t> packet, std::size_t header, std::uint8_t serial) {
  std::copy_n(packet.begin(), header, c.header.begin());
  c.length = static_cast<std::uint16_t>(header);
  c.payload = static_cast<std::uint16_t>(packet.size() - header);
  c.serial = serial;
}

}  // namespace

std::size_t inner_header_length(std::span<const std::uint8_t> p) {
  if (p.empty()) return 0;
  std::size_t t = 0;
  std::uint8_t protocol = 0;
  if ((p[0] >> 4) == 4) {
    t = (p[0] & 0x0Fu) * 4u;
    if (t < kIpv4MinHeader || p.size() < t) return 0;
    if ((get_be16(p.data() + 6) & 0x1FFF) != 0) return t;  // a later fragment: no transport header
    protocol = p[9];
  } else if ((p[0] >> 4) == 6) {
    if (p.size() < kIpv6Header) return 0;
    t = kIpv6Header;
    protocol = p[6];
  } else {
    return 0;
  }
  if (p.size() > 0xFFFF) return 0;  // lengths are 16-bit fields
  return t + transport_header_length(p, t, protocol);
}

HeaderCompressor::HeaderCompressor() : contexts_(kHcContexts) {}

void HeaderCompressor::reset() { std::fill(contexts_.begin(), contexts_.end(), HcContext{}); }

std::uint8_t HeaderCompressor::context_for(std::span<const std::uint8_t> packet) {
  const auto key = transport::parse_flow(packet);
  return key ? static_cast<std::uint8_t>(transport::hash(*key) % kHcContexts) : 0;
}

std::size_t HeaderCompressor::compress(std::span<const std::uint8_t> packet, std::uint8_t context,
                                       std::span<std::uint8_t> out) {
  const std::size_t header = inner_header_length(packet);
  if (header == 0) {
    const std::uint8_t version = packet.empty() ? 0 : packet[0] >> 4;
    const bool bare = version == kHcFormBare4 || version == kHcFormBare6;
    const std::size_t at = bare ? 0 : 1;
    if (at + packet.size() > out.size()) return 0;
    if (bare) {
      ++ctr_.bare;
    } else {
      out[0] = kHcFormOpaque << 4;
      ++ctr_.opaque;
    }
    std::copy(packet.begin(), packet.end(), out.begin() + static_cast<std::ptrdiff_t>(at));
    return at + packet.size();
  }
  HcContext& c = contexts_[context];
  const auto serial = static_cast<std::uint8_t>((c.serial + 1) % kHcSerialModulus);
  std::size_t n = 0;
  if (c.length == header && c.header[0] == packet[0] && c.compressed < kHcRefreshEvery && header_checksum_ok(packet))
    n = write_compressed(c, packet, header, context, serial, out);
  if (n == kNoRoom) return 0;
  if (n == 0 && kHcMaxPrefix + packet.size() > out.size()) return 0;
  if (n != 0) {
    ++c.compressed;
    ++ctr_.compressed;
    ctr_.bytes_saved += packet.size() - n;
  } else {
    out[0] = static_cast<std::uint8_t>(kHcFormFull << 4 | serial);
    out[1] = context;
    std::copy(packet.begin(), packet.end(), out.begin() + kHcMaxPrefix);
    n = kHcMaxPrefix + packet.size();
    c.compressed = 0;
    ++ctr_.full;
  }
  adopt(c, packet, header, serial);
  return n;
}

std::size_t HeaderCompressor::write_compressed(const HcContext& c, std::span<const std::uint8_t> packet,
                                               std::size_t header, std::uint8_t context, std::uint8_t serial,
                                               std::span<std::uint8_t> out) const {
  std::array<std::uint8_t, kHcMaxHeader> predicted;
  predict(c, packet.size(), predicted.data());
  const bool v4 = layout_of(packet.data()).v4;
  std::array<std::uint8_t, kBitmapBytes> bitmap{};
  std::size_t changed = 0;
  for (std::size_t i = 0; i < header; ++i)
    if (!excluded(v4, i) && packet[i] != predicted[i]) { set_bit(bitmap.data(), i); ++changed; }
  const std::size_t bitmap_bytes = (header + 7) / 8, mask_bytes = (bitmap_bytes + 7) / 8;
  std::array<std::uint8_t, kMaskBytes> mask{};
  std::size_t used = 0;
  for (std::size_t j = 0; j < bitmap_bytes; ++j)
    if (bitmap[j] != 0) { set_bit(mask.data(), j); ++used; }
  const std::size_t head = kHcMaxPrefix + mask_bytes + used + changed;
  if (head >= header) return 0;  // not shorter than the packet itself
  if (head + packet.size() - header > out.size()) return kNoRoom;
  std::uint8_t* o = out.data();
  o[0] = static_cast<std::uint8_t>(kHcFormCompressed << 4 | serial);
  o[1] = context;
  std::size_t at = kHcMaxPrefix;
  for (std::size_t j = 0; j < mask_bytes; ++j) o[at++] = mask[j];
  for (std::size_t j = 0; j < bitmap_bytes; ++j)
    if (bitmap[j] != 0) o[at++] = bitmap[j];
  for (std::size_t i = 0; i < header; ++i)
    if (bit(bitmap.data(), i)) o[at++] = packet[i];
  std::copy(packet.begin() + static_cast<std::ptrdiff_t>(header), packet.end(), o + at);
  return at + packet.size() - header;
}

HeaderDecompressor::HeaderDecompressor() : contexts_(kHcContexts) {}

void HeaderDecompressor::reset() { std::fill(contexts_.begin(), contexts_.end(), HcContext{}); }

std::optional<std::size_t> HeaderDecompressor::decompress(std::span<const std::uint8_t> form,
                                                          std::span<std::uint8_t> out) {
  const std::uint8_t kind = form.empty() ? 0 : form[0] >> 4;
  if (kind == kHcFormBare4 || kind == kHcFormBare6 || kind == kHcFormOpaque) {
    const auto packet = kind == kHcFormOpaque ? form.subspan(1) : form;
    if (packet.empty() || packet.size() > out.size()) return ++ctr_.malformed, std::nullopt;
    ++(kind == kHcFormOpaque ? ctr_.opaque : ctr_.bare);
    std::copy(packet.begin(), packet.end(), out.begin());
    return packet.size();
  }
  if ((kind != kHcFormFull && kind != kHcFormCompressed) || form.size() < kHcMaxPrefix)
    return ++ctr_.malformed, std::nullopt;
  const auto serial = static_cast<std::uint8_t>(form[0] & 0x0F);
  HcContext& c = contexts_[form[1]];
  const auto body = form.subspan(kHcMaxPrefix);
  if (kind == kHcFormFull) {
    const std::size_t header = inner_header_length(body);
    if (header == 0 || body.size() > out.size()) { c.length = 0; return ++ctr_.malformed, std::nullopt; }
    std::copy(body.begin(), body.end(), out.begin());
    adopt(c, body, header, serial);
    ++ctr_.full;
    return body.size();
  }
  if (c.length == 0 || serial != (c.serial + 1) % kHcSerialModulus) {
    c.length = 0;  // unusable until the next full header
    return ++ctr_.context_breaks, std::nullopt;
  }
  const auto n = rebuild(c, body, out);
  if (!n) { c.length = 0; return ++ctr_.malformed, std::nullopt; }
  c.serial = serial;
  ++ctr_.compressed;
  return n;
}

std::optional<std::size_t> HeaderDecompressor::rebuild(HcContext& c, std::span<const std::uint8_t> changes,
                                                       std::span<std::uint8_t> out) {
  const std::size_t header = c.length;
  const Layout l = layout_of(c.header.data());
  const std::size_t bitmap_bytes = (header + 7) / 8, mask_bytes = (bitmap_bytes + 7) / 8;
  if (changes.size() < mask_bytes) return std::nullopt;
  std::array<std::uint8_t, kBitmapBytes> bitmap{};
  std::size_t at = mask_bytes;
  for (std::size_t j = 0; j < kMaskBytes * 8; ++j) {
    if (j >= mask_bytes * 8 || !bit(changes.data(), j)) continue;
    if (j >= bitmap_bytes || at >= changes.size()) return std::nullopt;
    bitmap[j] = changes[at++];
  }
  std::size_t changed = 0;
  for (std::size_t i = 0; i < bitmap_bytes * 8; ++i) {
    if (!bit(bitmap.data(), i)) continue;
    if (i == 0 || i >= header || excluded(l.v4, i)) return std::nullopt;  // never sent for these bytes
    ++changed;
  }
  if (changes.size() < at + changed) return std::nullopt;
  const std::size_t payload = changes.size() - at - changed, total = header + payload;
  if (total > out.size() || total > 0xFFFF) return std::nullopt;
  predict(c, total, out.data());
  for (std::size_t i = 0; i < header; ++i)
    if (bit(bitmap.data(), i)) out[i] = changes[at++];
  std::copy(changes.begin() + static_cast<std::ptrdiff_t>(at), changes.end(), out.begin() + static_cast<std::ptrdiff_t>(header));
  if (l.v4) {
    put_be16(out.data() + 10, 0);
    put_be16(out.data() + 10, transport::checksum_finish(transport::checksum_add(0, out.first(l.transport))));
  }
  std::copy_n(out.begin(), header, c.header.begin());
  c.payload = static_cast<std::uint16_t>(payload);
  return total;
}

}  // namespace ncgw::tcpnc
