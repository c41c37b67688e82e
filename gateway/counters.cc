#include "gateway/counters.h"

namespace ncgw::gateway {

GatewayCounters& GatewayCounters::operator+=(const GatewayCounters& o) {
  tun_rx_packets += o.tun_rx_packets;
  tun_rx_bytes += o.tun_rx_bytes;
  tun_tx_packets += o.tun_tx_packets;
  tun_tx_bytes += o.tun_tx_bytes;
  tun_write_errors += o.tun_write_errors;
  tun_read_errors += o.tun_read_errors;
  tun_gso_frames += o.tun_gso_frames;
  tun_gso_segments += o.tun_gso_segments;
  tun_gro_frames += o.tun_gro_frames;
  tun_gro_segments += o.tun_gro_segments;
  drop_bad_vnet_header += o.drop_bad_vnet_header;
  drop_no_route += o.drop_no_route;
  drop_not_ip += o.drop_not_ip;
  udp_rx_datagrams += o.udp_rx_datagrams;
  udp_rx_bytes += o.udp_rx_bytes;
  drop_unknown_sender += o.drop_unknown_sender;
  forwarded_packets += o.forwarded_packets;
  ttl_expired += o.ttl_expired;
  icmp_time_exceeded_sent += o.icmp_time_exceeded_sent;
  icmp_suppressed += o.icmp_suppressed;
  icmp_too_big_sent += o.icmp_too_big_sent;
  handed_over += o.handed_over;
  drop_handoff += o.drop_handoff;
  return *this;
}

PeerCounters& PeerCounters::operator+=(const PeerCounters& o) {
  tun_packets_routed += o.tun_packets_routed;
  send_refused += o.send_refused;
  too_big += o.too_big;
  datagrams_in += o.datagrams_in;
  datagrams_out += o.datagrams_out;
  forwarded_from += o.forwarded_from;
  forwarded_to += o.forwarded_to;
  ttl_expired += o.ttl_expired;
  icmp_time_exceeded_sent += o.icmp_time_exceeded_sent;
  fudp_dropped += o.fudp_dropped;
  return *this;
}

}  // namespace ncgw::gateway
