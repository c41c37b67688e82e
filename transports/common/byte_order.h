// Big-endian (network order) reads and writes at byte offsets, without alignment assumptions.
#pragma once
#include <cstdint>
#include <cstring>
#include <span>

namespace ncgw::transport {

// Writes v big-endian at p[0..1].
inline void put_be16(std::uint8_t* p, std::uint16_t v) { p[0] = v >> 8; p[1] = v & 0xFF; }
// Writes v big-endian at p[0..3].
inline void put_be32(std::uint8_t* p, std::uint32_t v) {
  p[0] = v >> 24; p[1] = (v >> 16) & 0xFF; p[2] = (v >> 8) & 0xFF; p[3] = v & 0xFF;
}
// Writes v big-endian at p[0..7].
inline void put_be64(std::uint8_t* p, std::uint64_t v) {
  put_be32(p, static_cast<std::uint32_t>(v >> 32));
  put_be32(p + 4, static_cast<std::uint32_t>(v));
}
// Writes the low 24 bits of v big-endian at p[0..2].
inline void put_be24(std::uint8_t* p, std::uint32_t v) {
  p[0] = (v >> 16) & 0xFF; p[1] = (v >> 8) & 0xFF; p[2] = v & 0xFF;
}
// Writes the low 48 bits of v big-endian at p[0..5].
inline void put_be48(std::uint8_t* p, std::uint64_t v) {
  put_be16(p, static_cast<std::uint16_t>(v >> 32));
  put_be32(p + 2, static_cast<std::uint32_t>(v));
}
// Reads a big-endian 16-bit value at p.
inline std::uint16_t get_be16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] << 8 | p[1]); }
// Reads a big-endian 32-bit value at p.
inline std::uint32_t get_be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}
// Reads a big-endian 24-bit value at p.
inline std::uint32_t get_be24(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 16) | (std::uint32_t{p[1]} << 8) | p[2];
}
// Reads a big-endian 48-bit value at p.
inline std::uint64_t get_be48(const std::uint8_t* p) {
  return (std::uint64_t{get_be16(p)} << 32) | get_be32(p + 2);
}
// Reads a big-endian 64-bit value at p.
inline std::uint64_t get_be64(const std::uint8_t* p) {
  return (std::uint64_t{get_be32(p)} << 32) | get_be32(p + 4);
}

}  // namespace ncgw::transport
