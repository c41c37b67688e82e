// Wire constants of the `plain` transport: unreliable UDP encapsulation of IP packets.
// Layout (docs/plain-wire.md), all fields big-endian, 12 bytes:
//   0  magic     u16  0x4E47 ("NG")
//   2  version   u8   2 (v1 had a zero reserved field where v2 carries the sequence number)
//   3  type      u8   1 = data, 2 = keep-alive
//   4  flags     u8   bit 0: authenticated (reserved for the authentication issue; must be 0 in v2)
//   5  auth_len  u8   length of an authentication tag after the payload (0 in v2)
//   6  seq       u16  per-direction datagram sequence number: 0 for a sender's first datagram, +1 per
//                     datagram (data and keep-alive), wrapping at 2^16; the receiver counts gaps
//   8  session   u32  session id shared by the two gateways of a tunnel
// followed by the IP packet (data) or nothing (keep-alive), then auth_len tag bytes.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ncgw::plain {

inline constexpr std::uint16_t kMagic = 0x4E47;          // "NG"
inline constexpr std::uint8_t kVersion = 2;              // this header layout
inline constexpr std::size_t kHeaderSize = 12;           // bytes before the payload
inline constexpr std::uint8_t kFlagAuthenticated = 0x01; // reserved for the authentication issue
inline constexpr std::uint8_t kKnownFlags = 0x00;        // flags v2 understands
inline constexpr std::size_t kOffSeq = 6;                // offset of the sequence number

// Datagram types.
enum class PacketType : std::uint8_t {
  data = 1,       // carries one IP packet
  keepalive = 2,  // empty; keeps NAT bindings and shows liveness in status
};

}  // namespace ncgw::plain
