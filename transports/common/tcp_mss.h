// MSS clamping: lowering the maximum segment size a TCP SYN announces, as routers do for tunnels
// whose packets must stay below a size (RFC 879 section 5; RFC 6691). Works on IPv4 and IPv6
// (without extension headers) by offset, in place, with an incremental checksum update (RFC 1624).
#pragma once
#include <cstdint>
#include <span>

namespace ncgw::transport {

// The MSS option's value if `packet` is a TCP SYN (or SYN-ACK) that carries one, else 0.
std::uint16_t syn_mss(std::span<const std::uint8_t> packet);

// Lowers the MSS option of a SYN in `packet` to `mss` when it announces more; returns whether it
// changed anything. The TCP checksum stays valid.
bool clamp_syn_mss(std::span<std::uint8_t> packet, std::uint16_t mss);

}  // namespace ncgw::transport
