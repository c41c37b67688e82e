// Maps the YAML settings (config::UdtSettings) of a peer onto UdtTunnelSettings. Header-only so
// ncgw_udt does not depend on the config library.
#pragma once
#include <string>

#include "config/config.h"
#include "transports/udt/udt_tunnel_core.h"

namespace ncgw::udt {

// Role when rendezvous is off: the gateway whose name sorts first calls, the other listens.
inline TunnelRole tunnel_role(const config::UdtSettings& u, const std::string& local_name,
                              const std::string& peer_name) {
  if (u.rendezvous) return TunnelRole::rendezvous;
  return local_name < peer_name ? TunnelRole::caller : TunnelRole::listener;
}

// Tunnel settings for `peer` (its underlay address already parsed).
inline UdtTunnelSettings tunnel_settings(const config::UdtSettings& u, TunnelRole role, const PeerAddress& peer) {
  UdtTunnelSettings s = default_tunnel_settings();
  s.role = role;
  s.peer = peer;
  s.seed = u.seed;
  s.conn.mss = u.mss;
  s.conn.flight_flag_size = u.flight_flag_size;
  s.conn.send_buffer_packets = u.send_buffer_packets;
  s.conn.recv_buffer_packets = u.recv_buffer_packets;
  return s;
}

}  // namespace ncgw::udt
