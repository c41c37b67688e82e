// In-process forwarding between tunnels: a packet one peer's core delivered whose destination the
// route table maps to a peer goes into that peer's core with its hop limit decremented, as a router
// would; on expiry an ICMP Time Exceeded from the gateway's TUN address goes back the way the packet
// came. Everything else is for the kernel (the TUN). No allocation per packet.
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
  drop_expired,  // expired; no ICMP may or can be sent (ICMP error, no TUN address of its family...)
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
  // The ICMP Time Exceeded built by the last route_delivery that answered.
  std::span<const std::uint8_t> answer() const { return {answer_.data(), answer_length_}; }

 private:
  ForwardDecision expire(std::span<const std::uint8_t> packet);

  const RouteTable& routes_;
  std::optional<config::IpAddress> source_v4_, source_v6_;
  std::array<std::uint8_t, kMaxIcmpAnswer> answer_{};
  std::size_t answer_length_ = 0;
};

}  // namespace ncgw::gateway
