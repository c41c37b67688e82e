// Coding header codec (layout: wire.h, docs/coding-wire.md).
#include "coding/header.h"

#include <cstring>

#include "transports/common/byte_order.h"
#include "transports/common/serial_number.h"

namespace ncgw::coding {
namespace {

using transport::get_be16;
using transport::get_be32;
using transport::put_be16;
using transport::put_be32;

// Structural validity shared by writer and parser.
bool valid(const CodingHeader& h) {
  if (h.width == 0 || h.width > kMaxWindow) return false;
  if (h.kind == Kind::kSource) return h.index < h.width;
  return h.index == 0 && (h.kind == Kind::kSeeded || h.kind == Kind::kExplicit);
}

}  // namespace

std::size_t header_size(const CodingHeader& h) {
  switch (h.kind) {
    case Kind::kSource: return kFixedHeaderSize;
    case Kind::kSeeded: return kFixedHeaderSize + kSeedSize;
    case Kind::kExplicit: return kFixedHeaderSize + h.width;
  }
  return 0;
}

std::size_t write_header(const CodingHeader& h, std::span<std::uint8_t> out) {
  const std::size_t size = header_size(h);
  if (!valid(h) || size == 0 || out.size() < size) return 0;
  std::uint8_t* p = out.data();
  p[kOffFlags] = static_cast<std::uint8_t>(kWireVersion << 6 | static_cast<unsigned>(h.kind) << 4 |
                                           (h.closed ? kFlagClosed : 0));
  p[kOffWidth] = h.width;
  p[kOffIndex] = h.index;
  put_be16(p + kOffCwId, static_cast<std::uint16_t>(h.cw_id));
  put_be32(p + kOffBase, static_cast<std::uint32_t>(h.base));
  if (h.kind == Kind::kSeeded) put_be32(p + kFixedHeaderSize, h.seed);
  if (h.kind == Kind::kExplicit) std::memcpy(p + kFixedHeaderSize, h.coefs.data(), h.width);
  return size;
}

std::optional<ParsedCombination> parse_combination(std::span<const std::uint8_t> d) {
  if (d.size() < kFixedHeaderSize) return std::nullopt;
  const std::uint8_t flags = d[kOffFlags];
  if ((flags >> 6) != kWireVersion || (flags & 0x07) != 0) return std::nullopt;
  const unsigned kind = (flags >> 4) & 0x03;
  if (kind > static_cast<unsigned>(Kind::kExplicit)) return std::nullopt;
  ParsedCombination pc;
  CodingHeader& h = pc.header;
  h.kind = static_cast<Kind>(kind);
  h.closed = (flags & kFlagClosed) != 0;
  h.width = d[kOffWidth];
  h.index = d[kOffIndex];
  h.cw_id = get_be16(d.data() + kOffCwId);
  h.base = get_be32(d.data() + kOffBase);
  if (!valid(h)) return std::nullopt;
  const std::size_t size = header_size(h);
  if (d.size() < size) return std::nullopt;
  if (h.kind == Kind::kSeeded) h.seed = get_be32(d.data() + kFixedHeaderSize);
  if (h.kind == Kind::kExplicit) std::memcpy(h.coefs.data(), d.data() + kFixedHeaderSize, h.width);
  pc.payload = d.subspan(size);
  return pc;
}

std::uint64_t unwrap32(std::uint64_t expected, std::uint32_t wire) {
  return transport::unwrap_serial<32>(expected, wire);
}

std::uint64_t unwrap_cw_id(std::uint64_t expected, std::uint16_t wire) {
  return transport::unwrap_serial<kCwIdBits>(expected, wire);
}

}  // namespace ncgw::coding
