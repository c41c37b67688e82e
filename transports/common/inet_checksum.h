// The Internet checksum (RFC 1071) over byte spans, shared by the gateway's packet surgery (ICMP
// answers, TTL updates, offload split and merge) and the transports' inner-header compression.
#pragma once
#include <cstdint>
#include <span>

namespace ncgw::transport {

// Sums 16-bit big-endian words of `bytes` onto `sum` (an odd last byte is padded with zero) and
// returns the sum folded to 16 bits; fold and complement with checksum_finish. Reads 4 bytes at
// a time (the gateway sums every segment it cuts from a TUN super-packet).
std::uint32_t checksum_add(std::uint32_t sum, std::span<const std::uint8_t> bytes);
// The one's-complement checksum from a running sum (RFC 1071).
std::uint16_t checksum_finish(std::uint32_t sum);

}  // namespace ncgw::transport
