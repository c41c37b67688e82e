// Gateway-level counters (per interface and per reason of drop); per-peer figures come from cores.
#pragma once
#include <cstdint>

namespace ncgw::gateway {

// What the data path did with packets outside any one transport core.
struct GatewayCounters {
  std::uint64_t tun_rx_packets = 0, tun_rx_bytes = 0;   // read from the TUN
  std::uint64_t tun_tx_packets = 0, tun_tx_bytes = 0;   // written to the TUN
  std::uint64_t tun_write_errors = 0;                   // write() to the TUN failed
  std::uint64_t tun_read_errors = 0;                    // read() from the TUN failed (not EAGAIN)
  std::uint64_t tun_gso_frames = 0;                     // TUN reads that held a TCP super-packet (offloads on)
  std::uint64_t tun_gso_segments = 0;                   // packets those super-packets were cut into
  std::uint64_t tun_gro_frames = 0;                     // TUN writes that merged several TCP segments (offloads on)
  std::uint64_t tun_gro_segments = 0;                   // packets those writes held
  std::uint64_t drop_bad_vnet_header = 0;               // TUN reads with a malformed virtio_net_hdr or GSO packet
  std::uint64_t drop_no_route = 0;                      // TUN packet with no route to a peer
  std::uint64_t drop_not_ip = 0;                        // TUN packet that is not IPv4/IPv6
  std::uint64_t udp_rx_datagrams = 0, udp_rx_bytes = 0; // received on any port
  std::uint64_t drop_unknown_sender = 0;                // datagram from an address that is no peer
  std::uint64_t forwarded_packets = 0;                  // delivered by one peer, sent into another
  std::uint64_t ttl_expired = 0;                        // delivered for another peer with TTL/hop limit <= 1
  std::uint64_t icmp_time_exceeded_sent = 0;            // ICMP Time Exceeded answers sent (peer or TUN)
  std::uint64_t icmp_suppressed = 0;                    // expiries not answered (ICMP error, no source...)
  std::uint64_t icmp_too_big_sent = 0;                  // ICMP Packet Too Big answers sent (peer or TUN)
  std::uint64_t handed_over = 0;                        // packets passed to the worker serving their peer
  std::uint64_t drop_handoff = 0;                       // of those, dropped: its channel was full, or the packet exceeded a slot (the TUN MTU)

  // Adds another worker's counters (the status of a gateway with several workers).
  GatewayCounters& operator+=(const GatewayCounters& o);
};

// Per-peer counters the driver keeps beside its core's own.
struct PeerCounters {
  std::uint64_t tun_packets_routed = 0;  // TUN packets the route table sent to this peer
  std::uint64_t send_refused = 0;        // packets the core refused (buffer full, too big...)
  std::uint64_t too_big = 0;             // of those, larger than the core carries (Packet Too Big sent if allowed)
  std::uint64_t datagrams_in = 0;        // datagrams from this peer's address
  std::uint64_t datagrams_out = 0;       // datagrams handed to the socket for this peer
  std::uint64_t forwarded_from = 0;      // packets this peer delivered that went into another peer
  std::uint64_t forwarded_to = 0;        // packets another peer delivered that went into this one
  std::uint64_t ttl_expired = 0;         // packets this peer delivered that expired here
  std::uint64_t icmp_time_exceeded_sent = 0;  // ICMP Time Exceeded answers sent into this peer
  std::uint64_t fudp_dropped = 0;        // packets a UDP flow's FUDP bucket dropped at the entrance

  // Adds another worker's counters for the same peer.
  PeerCounters& operator+=(const PeerCounters& o);
};

}  // namespace ncgw::gateway
