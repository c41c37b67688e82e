#include "gateway/forwarder.h"

#include <cstring>

#include "gateway/ip_packet.h"

namespace ncgw::gateway {

namespace {

// IPv4: TTL at byte 8 shares a 16-bit header word with the protocol (byte 9); the checksum is at 10.
HopOutcome decrement_v4(std::span<std::uint8_t> p) {
  if (p[8] <= 1) return HopOutcome::expired;
  const std::uint16_t old_word = static_cast<std::uint16_t>((p[8] << 8) | p[9]);
  --p[8];
  const std::uint16_t new_word = static_cast<std::uint16_t>((p[8] << 8) | p[9]);
  const std::uint16_t old_sum = static_cast<std::uint16_t>((p[10] << 8) | p[11]);
  // RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m').
  std::uint32_t sum = static_cast<std::uint16_t>(~old_sum);
  sum += static_cast<std::uint16_t>(~old_word);
  sum += new_word;
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  const std::uint16_t new_sum = static_cast<std::uint16_t>(~sum);
  p[10] = static_cast<std::uint8_t>(new_sum >> 8);
  p[11] = static_cast<std::uint8_t>(new_sum);
  return HopOutcome::decremented;
}

// IPv6: hop limit at byte 7, no header checksum.
HopOutcome decrement_v6(std::span<std::uint8_t> p) {
  if (p[7] <= 1) return HopOutcome::expired;
  --p[7];
  return HopOutcome::decremented;
}

// The source address of a packet ip_destination accepted.
transport::IpAddress ip_source(std::span<const std::uint8_t> packet) {
  transport::IpAddress a;
  a.v6 = (packet[0] >> 4) == 6;
  std::memcpy(a.bytes.data(), packet.data() + (a.v6 ? 8 : 12), a.v6 ? 16 : 4);
  return a;
}

}  // namespace

HopOutcome decrement_hop_limit(std::span<std::uint8_t> packet) {
  if (packet.empty()) return HopOutcome::not_ip;
  const unsigned version = packet[0] >> 4;
  if (version == 4 && packet.size() >= 20 && (packet[0] & 0x0F) >= 5) return decrement_v4(packet);
  if (version == 6 && packet.size() >= 40) return decrement_v6(packet);
  return HopOutcome::not_ip;
}

Forwarder::Forwarder(const RouteTable& routes, std::span<const config::Prefix> tun_addresses) : routes_(routes) {
  for (const auto& p : tun_addresses) {
    auto& slot = p.address.v6 ? source_v6_ : source_v4_;
    if (!slot) slot = p.address;
  }
}

ForwardDecision Forwarder::route_delivery(std::span<std::uint8_t> packet) {
  const auto dst = ip_destination(packet);
  if (!dst) return {ForwardAction::to_tun};
  const auto peer = routes_.lookup(*dst);
  if (!peer) return {ForwardAction::to_tun};
  if (decrement_hop_limit(packet) == HopOutcome::decremented) return {ForwardAction::forward, *peer};
  return answer_with(IcmpError::time_exceeded, packet, 0);
}

ForwardDecision Forwarder::too_big(std::span<const std::uint8_t> packet, std::size_t mtu) {
  answer_length_ = 0;
  // ip_source reads the header: only packets an ICMP error may be about (whole headers) get here.
  if (!must_not_fragment(packet) || !may_answer_with_icmp_error(packet)) return {ForwardAction::no_answer};
  return answer_with(IcmpError::packet_too_big, packet, static_cast<std::uint32_t>(mtu));
}

ForwardDecision Forwarder::answer_with(IcmpError kind, std::span<const std::uint8_t> packet, std::uint32_t mtu) {
  answer_length_ = 0;
  const transport::IpAddress src = ip_source(packet);
  const auto back = routes_.lookup(src);
  const auto source = answer_source(kind, packet, src.v6, back.has_value());
  if (!source) return {ForwardAction::no_answer};
  answer_length_ = build_icmp_error(kind, packet, *source, mtu, answer_);
  if (answer_length_ == 0) return {ForwardAction::no_answer};
  if (!back) return {ForwardAction::answer_tun};
  return {ForwardAction::answer_peer, *back};
}

std::optional<transport::IpAddress> Forwarder::answer_source(IcmpError kind, std::span<const std::uint8_t> packet,
                                                          bool v6, bool to_peer) const {
  // This host's kernel drops a packet written to the TUN whose source is one of its own addresses
  // (a martian source), so a Packet Too Big for a local host comes from the packet's destination,
  // which the sender's PMTU cache keys on anyway. Through a peer, the TUN address is foreign there.
  if (kind == IcmpError::packet_too_big && !to_peer) return ip_destination(packet);
  return v6 ? source_v6_ : source_v4_;
}

}  // namespace ncgw::gateway
