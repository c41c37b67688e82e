// The coding header: what each coded datagram says about its combination, and its codec
// (layout in wire.h and docs/coding-wire.md). The transport puts its own header in front.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "coding/wire.h"

namespace ncgw::coding {

// A parsed coding header. CW id and base are 64-bit here; the wire carries the low 16 bits of
// the CW id and the low 32 bits of the base.
struct CodingHeader {
  Kind kind = Kind::kSource;               // source, seeded repair or explicit repair
  bool closed = false;                     // the CW is closed and `width` is its final n
  std::uint8_t width = 1;                  // sources spanned: 1..kMaxWindow (source: index < width)
  std::uint8_t index = 0;                  // source index (kSource only)
  std::uint64_t cw_id = 0;                 // coding window id (consecutive per stream)
  std::uint64_t base = 0;                  // source number of the CW's first source
  std::uint32_t seed = 0;                  // coefficient seed (kSeeded only)
  std::array<std::uint8_t, kMaxWindow> coefs{};  // explicit coefficients (kExplicit, first `width`)
};

// Bytes this header occupies on the wire (9, 13 or 9 + width).
std::size_t header_size(const CodingHeader& h);

// Writes `h` at the front of `out`; returns the bytes written, or 0 if `out` is too small or the
// header is invalid (width 0 or > kMaxWindow, source index >= width).
std::size_t write_header(const CodingHeader& h, std::span<std::uint8_t> out);

// A header parsed off a datagram plus the payload that follows it.
struct ParsedCombination {
  CodingHeader header;                     // cw_id/base hold the wire values until unwrapped
  std::span<const std::uint8_t> payload;   // bytes after the header (packet or coded symbol)
};

// Parses a datagram (coding header + payload). Rejects bad versions, kinds, widths, indexes and
// non-zero reserved bits. cw_id (16 bits) and base (32 bits) come back as the raw wire values:
// unwrap them with unwrap_cw_id() and unwrap32() against what the receiver expects.
std::optional<ParsedCombination> parse_combination(std::span<const std::uint8_t> datagram);

// The 64-bit value closest to `expected` whose low 32 bits equal `wire` (serial-number unwrap).
std::uint64_t unwrap32(std::uint64_t expected, std::uint32_t wire);

// The 64-bit CW id closest to `expected` whose low kCwIdBits bits equal `wire`.
std::uint64_t unwrap_cw_id(std::uint64_t expected, std::uint16_t wire);

}  // namespace ncgw::coding
