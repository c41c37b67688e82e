// In-process forwarding between tunnels: a packet one peer's core delivered whose destination the
// route table maps to a peer goes into that peer's core with its hop limit decremented, as a router
// would; on expiry an ICMP Time Exceeded from the gateway's TUN address goes back the way the packet
// came, and so does an ICMP Packet Too Big for a packet a tunnel cannot carry (path MTU discovery
// through the tunnel). Everything else is for the kernel (the TUN). No allocation per packet.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "config/prefix.h"
#include "gateway/icmp.h"
#include "gateway/route_table.h"

namespace ncgw::gateway {

// What decrement_hop_limit found.
enum class HopOutcome {
  decremented,  // TTL / hop limit was above 1 and is now one less (IPv4 checksum updated)
  expired,      // TTL / hop limit was 0 or 1: the packet must not be forwarded (left unchanged)
  not_ip,       // neither a well-formed IPv4 nor IPv6 header
};

// Decrements the IPv4 TTL (with the RFC 1624 incremental header checksum update) or the IPv6 hop
// limit of `packet` in place, unless it would expire.
HopOutcome decrement_hop_limit(std::span<std::uint8_t> packet);

// What the driver does with one delivered packet.
enum class ForwardAction {
  to_tun,        // for the kernel: local delivery or a network the route table does not hold
  forward,       // hop limit decremented; send it into peer `peer`'s core
  answer_peer,   // expired; send answer() into peer `peer`'s core
  answer_tun,    // expired; write answer() to the TUN (its source is not routed to a peer)
  no_answer,     // no ICMP may or can be sent (ICMP error, no TUN address of its family, IPv4 without DF...)
};

// The decision about one delivered packet.
struct ForwardDecision {
  ForwardAction action = ForwardAction::to_tun;
  std::size_t peer = 0;  // the peer index for forward / answer_peer
};

// Decides, per delivered packet, between the TUN and another tunnel; holds the ICMP answer buffer.
class Forwarder {
 public:
  // `routes` must outlive the forwarder; the first IPv4 and IPv6 of `tun_addresses` source ICMP.
  Forwarder(const RouteTable& routes, std::span<const config::Prefix> tun_addresses);
  // Decides what happens to `packet`; may decrement its hop limit in place, and on expiry builds
  // the ICMP answer returned by answer().
  ForwardDecision route_delivery(std::span<std::uint8_t> packet);
  // A tunnel refused `packet` as larger than the `mtu` bytes it carries: builds the ICMP Packet
  // Too Big returned by answer() (answer_tun / answer_peer) or says no_answer.
  ForwardDecision too_big(std::span<const std::uint8_t> packet, std::size_t mtu);
  // The ICMP error built by the last route_delivery or too_big that answered.
  std::span<const std::uint8_t> answer() const { return {answer_.data(), answer_length_}; }

 private:
  // Builds ICMP error `kind` about `packet` and routes it back toward the packet's source.
  ForwardDecision answer_with(IcmpError kind, std::span<const std::uint8_t> packet, std::uint32_t mtu);
  // The source address of an ICMP error `kind` about `packet` (IPv6 when `v6`), sent to a peer or
  // written to this host's TUN.
  std::optional<transport::IpAddress> answer_source(IcmpError kind, std::span<const std::uint8_t> packet, bool v6,
                                                 bool to_peer) const;

  const RouteTable& routes_;
  std::optional<transport::IpAddress> source_v4_, source_v6_;
  std::array<std::uint8_t, kMaxIcmpAnswer> answer_{};
  std::size_t answer_length_ = 0;
};

}  // namespace ncgw::gateway
