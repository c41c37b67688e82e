// Wire constants of the coding layer (paper 002, section 2.1; docs/coding-wire.md). Every number
// that another implementation must agree on lives here.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ncgw::coding {

// Largest source (IP) packet a CW accepts, in bytes (jumbo frames).
inline constexpr std::size_t kMaxPacket = 9000;
// Each source is coded as the symbol [2-byte big-endian length | packet | zero padding]
// (docs/tcpnc-mechanism.md "Terms": packets of one CW differ in length).
inline constexpr std::size_t kLengthPrefix = 2;
// Symbol buffers are padded to a multiple of this many bytes (ISA-L gf_vect_mad needs len >= 64).
inline constexpr std::size_t kSymbolAlign = 64;
// Bytes of the longest symbol (prefix + kMaxPacket) before alignment padding.
inline constexpr std::size_t kMaxSymbolBytes = kLengthPrefix + kMaxPacket;
// Capacity of one symbol buffer: kMaxSymbolBytes rounded up to kSymbolAlign (9024).
inline constexpr std::size_t kMaxSymbolCapacity =
    (kMaxSymbolBytes + kSymbolAlign - 1) / kSymbolAlign * kSymbolAlign;
// Largest number of sources in one CW (n): what the one-byte width field holds. At 200 Mbit/s a CW
// of 15 ms is about 265 sources; longer CWs average the loss better (docs/tcpnc-mechanism.md).
inline constexpr std::size_t kMaxWindow = 255;

// GF(2^8) is built on the polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D), as ISA-L's tables are.
inline constexpr unsigned kGfPolynomial = 0x11D;

// Version carried in the top two bits of the coding header's first byte.
inline constexpr std::uint8_t kWireVersion = 2;

// What a combination is (bits 5..4 of header byte 0).
enum class Kind : std::uint8_t {
  kSource = 0,    // a systematic source: payload is the bare packet, coefficient vector e_index
  kSeeded = 1,    // a repair: coefficients = coefficient_stream(seed)[0..width)
  kExplicit = 2,  // a repair: `width` coefficient bytes follow the fixed header
};

// Byte offsets of the coding header (all multi-byte fields big-endian; docs/coding-wire.md).
// Version 1 of this header had a reserved byte at offset 3 and a 32-bit CW id: 3 bytes more.
inline constexpr std::size_t kOffFlags = 0;   // u8: version(7..6) kind(5..4) closed(3) reserved(2..0)
inline constexpr std::size_t kOffWidth = 1;   // u8: sources the combination spans (1..kMaxWindow)
inline constexpr std::size_t kOffIndex = 2;   // u8: source index inside the CW (kSource), else 0
inline constexpr std::size_t kOffCwId = 3;    // u16: low 16 bits of the CW id (unwrapped by receiver)
inline constexpr std::size_t kOffBase = 5;    // u32: low 32 bits of the CW's first source number
inline constexpr std::size_t kFixedHeaderSize = 9;  // bytes before the kind-specific tail
// Bits of the CW id on the wire. A receiver holds at most 255 CWs (a u8 in the transport's
// HELLO), so every CW id it may see lies well within 2^15 of its oldest.
inline constexpr unsigned kCwIdBits = 16;
inline constexpr std::size_t kSeedSize = 4;   // u32 seed after the fixed header (kSeeded)
// Largest coding header: fixed part plus kMaxWindow explicit coefficients.
inline constexpr std::size_t kMaxHeaderSize = kFixedHeaderSize + kMaxWindow;

// Flag bit: the CW is closed and `width` is its final source count n.
inline constexpr std::uint8_t kFlagClosed = 0x08;

// Rounds a byte count up to the symbol alignment (at least one alignment unit).
constexpr std::size_t padded_length(std::size_t bytes) {
  const std::size_t r = (bytes + kSymbolAlign - 1) / kSymbolAlign * kSymbolAlign;
  return r == 0 ? kSymbolAlign : r;
}

}  // namespace ncgw::coding
