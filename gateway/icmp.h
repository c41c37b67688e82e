// ICMP errors a router sends, built into a caller's buffer: Time Exceeded (ICMPv4 type 11 / ICMPv6
// type 3) and Packet Too Big (ICMPv4 type 3 code 4 "fragmentation needed" / ICMPv6 type 2), and the
// Internet checksum they need. Pure functions over byte spans: no allocation, no OS calls.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "config/prefix.h"
#include "transports/common/inet_checksum.h"

namespace ncgw::gateway {

// Largest answer built: the IPv6 minimum MTU (RFC 4443 2.4c); ICMPv4 answers stop at 576 bytes
// (RFC 1812 4.3.2.3).
constexpr std::size_t kMaxIcmpAnswer = 1280;

// The Internet checksum, used here and by the offload and forwarding code.
using transport::checksum_add;
using transport::checksum_finish;

// True when RFC 1812 4.3.2.7 / RFC 4443 2.4e allow an ICMP error about `packet`: it is not itself an
// ICMP error, not a later fragment, and neither its source nor destination is unspecified,
// multicast, broadcast or loopback.
bool may_answer_with_icmp_error(std::span<const std::uint8_t> packet);

// The ICMP errors built here.
enum class IcmpError {
  time_exceeded,   // hop limit exceeded in transit
  packet_too_big,  // the next hop (a tunnel) carries at most `mtu` bytes (RFC 1191, RFC 8201)
};

// True for an IPv4 packet with Don't Fragment set, and for every IPv6 packet (routers never
// fragment IPv6): the packets a Packet Too Big may be sent about (else they are dropped: ncgw does
// not fragment).
bool must_not_fragment(std::span<const std::uint8_t> packet);

// Writes ICMP error `kind` about `packet` into `out`, from `source` (same IP family as `packet`) to
// the packet's source, quoting as much of it as fits; `mtu` is the MTU a Packet Too Big reports.
// Returns the answer's length, or 0 when none may or can be built.
std::size_t build_icmp_error(IcmpError kind, std::span<const std::uint8_t> packet, const transport::IpAddress& source,
                             std::uint32_t mtu, std::span<std::uint8_t> out);

// Writes an ICMP Time Exceeded (hop limit exceeded in transit, code 0) about `expired` into `out`,
// from `source` (same IP family as `expired`) to the expired packet's source, quoting as much of
// it as fits. Returns the answer's length, or 0 when none may or can be built.
std::size_t build_time_exceeded(std::span<const std::uint8_t> expired, const transport::IpAddress& source,
                                std::span<std::uint8_t> out);

}  // namespace ncgw::gateway
