// to_yaml: the normalised configuration, every default written out, in the schema's key order.
#include <yaml-cpp/yaml.h>

#include "config/endpoint.h"
#include "config/loader.h"
#include "config/scalars.h"

namespace ncgw::config {
namespace {

// A real number as the shortest exact text, with ".0" when it would read as an integer.
std::string real(double value) {
  std::string text = detail::format_real(value);
  if (text.find_first_of(".en") == std::string::npos) text += ".0";
  return text;
}

// `key: value` with an optional trailing comment.
template <typename T>
void emit_pair(YAML::Emitter& out, const char* key, const T& value, const char* comment = nullptr) {
  out << YAML::Key << key << YAML::Value << value;
  if (comment) out << YAML::Comment(comment);
}

// Integers go out as decimal text (the emitter would print uint8_t as a character).
std::string num(std::uint64_t v) { return std::to_string(v); }

// The `gateway` section.
void emit_gateway(YAML::Emitter& out, const GatewayConfig& c) {
  out << YAML::Key << "gateway" << YAML::Value << YAML::BeginMap;
  emit_pair(out, "name", c.name);
  emit_pair(out, "control_socket", c.control_socket.empty() ? default_control_socket(c.name) : c.control_socket);
  if (!c.private_key_file.empty()) emit_pair(out, "private_key_file", c.private_key_file);
  emit_pair(out, "user", c.user, "after setup: auto = ncgw if that user exists, else nobody");
  out << YAML::Key << "internal_interfaces" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const std::string& name : c.internal_interfaces) out << name;
  out << YAML::EndSeq;
  if (c.internal_interfaces.empty()) out << YAML::Comment("empty: tunnel routes in the main table, any interface");
  emit_pair(out, "route_table", num(c.route_table));
  emit_pair(out, "rule_priority", num(c.rule_priority));
  if (c.workers == 0) {
    emit_pair(out, "workers", std::string("auto"), "one event loop per peer, at most one per core");
  } else {
    emit_pair(out, "workers", num(c.workers));
  }
  out << YAML::EndMap;
}

// The `tun` section; an unset mtu is written as `auto`.
void emit_tun(YAML::Emitter& out, const TunConfig& t) {
  out << YAML::Key << "tun" << YAML::Value << YAML::BeginMap;
  emit_pair(out, "name", t.name);
  if (t.mtu) {
    emit_pair(out, "mtu", num(*t.mtu));
  } else {
    emit_pair(out, "mtu", std::string("auto"), "underlay_mtu minus the tunnel's headers");
  }
  emit_pair(out, "underlay_mtu", num(t.underlay_mtu));
  out << YAML::Key << "addresses" << YAML::Value;
  if (t.addresses.empty()) out << YAML::Flow;
  out << YAML::BeginSeq;
  for (const Prefix& p : t.addresses) out << to_string(p);
  out << YAML::EndSeq;
  emit_pair(out, "on_exit", std::string(to_string(t.on_exit)));
  emit_pair(out, "offload", std::string(to_string(t.offload)));
  out << YAML::EndMap;
}

// The `listen` section.
void emit_listen(YAML::Emitter& out, const ListenConfig& l) {
  out << YAML::Key << "listen" << YAML::Value << YAML::BeginMap;
  emit_pair(out, "address", l.address);
  emit_pair(out, "plain_port", num(l.plain_port));
  emit_pair(out, "tcpnc_port", num(l.tcpnc_port));
  emit_pair(out, "udt_port", num(l.udt_port));
  out << YAML::EndMap;
}

// The fields of a `tcpnc` block; fixed_n/fixed_k only when set.
void emit_tcpnc(YAML::Emitter& out, const TcpncSettings& s) {
  emit_pair(out, "congestion_control", std::string(to_string(s.congestion_control)));
  const bool automatic = s.cwnd_max_packets == 0;
  emit_pair(out, "cwnd_max_packets", num(s.cwnd_max_packets),
            automatic ? "0: automatic, from the measured BDP (at most 8192)" : nullptr);
  emit_pair(out, "link_buffer_packets", num(s.link_buffer_packets),
       s.link_buffer_packets == 0 && !automatic ? "0: r_max x cwnd_max_packets" : nullptr);
  emit_pair(out, "sending_buffer_packets", num(s.sending_buffer_packets),
       s.sending_buffer_packets != 0 ? nullptr
       : automatic ? "0: half the min RTT + 10 ms at the measured rate"
                   : "0: cwnd_max_packets + link buffer");
  emit_pair(out, "n_min", num(s.n_min));
  emit_pair(out, "n_max", num(s.n_max));
  emit_pair(out, "k_max", num(s.k_max));
  emit_pair(out, "r_max", real(s.r_max));
  emit_pair(out, "retransmission_target", real(s.retransmission_target));
  emit_pair(out, "idle_retransmission_target", real(s.idle_retransmission_target));
  emit_pair(out, "cw_rtt_fraction", real(s.cw_rtt_fraction));
  emit_pair(out, "sparse_flow_priority", s.sparse_flow_priority);
  emit_pair(out, "header_compression", s.header_compression);
  if (s.fixed_n && s.fixed_k) {
    emit_pair(out, "fixed_n", num(*s.fixed_n));
    emit_pair(out, "fixed_k", num(*s.fixed_k));
  }
  emit_pair(out, "rto_min_ms", num(s.rto_min_ms));
  emit_pair(out, "keepalive_ms", num(s.keepalive_ms));
  emit_pair(out, "dead_peer_ms", num(s.dead_peer_ms));
  emit_pair(out, "seed", num(s.seed));
}

// The fields of a `udt` block.
void emit_udt(YAML::Emitter& out, const UdtSettings& s) {
  if (s.mss_auto) emit_pair(out, "mss", std::string("auto"), "path MTU toward the peer, at most underlay_mtu");
  else emit_pair(out, "mss", num(s.mss));
  emit_pair(out, "flight_flag_size", num(s.flight_flag_size));
  emit_pair(out, "send_buffer_packets", num(s.send_buffer_packets));
  emit_pair(out, "recv_buffer_packets", num(s.recv_buffer_packets));
  emit_pair(out, "role", std::string(to_string(s.role)),
            s.role == UdtRole::automatic ? "caller or listener from the ordered pair of underlay endpoints" : nullptr);
  emit_pair(out, "channels", num(s.channels), s.channels == 0 ? "0: tuned from the RTT" : nullptr);
  emit_pair(out, "congestion_control", std::string(to_string(s.congestion_control)));
  emit_pair(out, "initial_window", num(s.initial_window));
  if (s.entrance_queue_ms < 0) emit_pair(out, "entrance_queue_ms", std::string("auto"), "min RTT / 2 + 10 ms");
  else if (s.entrance_queue_ms == 0) emit_pair(out, "entrance_queue_ms", std::string("off"));
  else emit_pair(out, "entrance_queue_ms", num(s.entrance_queue_ms));
  emit_pair(out, "seed", num(s.seed));
}

// The fields of a `fudp` block.
void emit_fudp(YAML::Emitter& out, const FudpSettings& s) {
  out << YAML::Key << "fudp" << YAML::Value << YAML::BeginMap;
  emit_pair(out, "enabled", s.enabled);
  emit_pair(out, "shape", s.shape);
  emit_pair(out, "period_ms", num(s.period_ms));
  emit_pair(out, "alpha", real(s.alpha));
  emit_pair(out, "beta", real(s.beta));
  emit_pair(out, "flow_table_size", num(s.flow_table_size));
  emit_pair(out, "idle_timeout_ms", num(s.idle_timeout_ms));
  out << YAML::EndMap;
}

// One peer: endpoint with its port, only the chosen transport's block, and a `fudp` block when
// it differs from the top-level one.
void emit_peer(YAML::Emitter& out, const Peer& p, const FudpSettings& top) {
  out << YAML::BeginMap;
  emit_pair(out, "name", p.name);
  const auto host = parse_ip(p.endpoint_host);
  const std::uint16_t port = p.endpoint_port != 0 ? p.endpoint_port : default_port(p.transport);
  emit_pair(out, "endpoint", host ? detail::format_endpoint(*host, port) : p.endpoint_host);
  emit_pair(out, "transport", std::string(to_string(p.transport)));
  emit_pair(out, "security", std::string(to_string(p.security)),
            p.security == Security::none ? "plaintext: neither encrypted nor authenticated" : nullptr);
  if (p.security == Security::aead) {
    emit_pair(out, "public_key", p.public_key);
    if (!p.preshared_key_file.empty()) emit_pair(out, "preshared_key_file", p.preshared_key_file);
    emit_pair(out, "rekey_after_s", num(p.rekey_after_s));
  }
  out << YAML::Key << std::string(to_string(p.transport)) << YAML::Value << YAML::BeginMap;
  switch (p.transport) {
    case TransportKind::plain:
      emit_pair(out, "session_id", num(p.plain.session_id),
           p.plain.session_id == 0 ? "0: derived from the two underlay endpoints" : nullptr);
      break;
    case TransportKind::tcpnc: emit_tcpnc(out, p.tcpnc); break;
    case TransportKind::udt: emit_udt(out, p.udt); break;
  }
  out << YAML::EndMap;
  if (p.fudp != top) emit_fudp(out, p.fudp);
  out << YAML::EndMap;
}

// The `routes` section.
void emit_routes(YAML::Emitter& out, const std::vector<Route>& routes) {
  out << YAML::Key << "routes" << YAML::Value;
  if (routes.empty()) out << YAML::Flow;
  out << YAML::BeginSeq;
  for (const Route& r : routes) {
    out << YAML::BeginMap;
    emit_pair(out, "prefix", to_string(r.prefix));
    emit_pair(out, "via", r.via);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

// The `logging` section.
void emit_logging(YAML::Emitter& out, const LoggingConfig& l) {
  out << YAML::Key << "logging" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "level" << YAML::Value;
  if (l.level == "off") out << YAML::DoubleQuoted;  // plain `off` is a boolean to YAML 1.1 readers
  out << l.level;
  emit_pair(out, "file", l.file, l.file.empty() ? "empty: stderr" : nullptr);
  out << YAML::EndMap;
}

}  // namespace

std::string to_yaml(const GatewayConfig& config) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  emit_gateway(out, config);
  emit_tun(out, config.tun);
  emit_listen(out, config.listen);
  if (config.fudp != FudpSettings{}) emit_fudp(out, config.fudp);  // absent: FUDP off everywhere
  out << YAML::Key << "peers" << YAML::Value;
  if (config.peers.empty()) out << YAML::Flow;
  out << YAML::BeginSeq;
  for (const Peer& p : config.peers) emit_peer(out, p, config.fudp);
  out << YAML::EndSeq;
  emit_routes(out, config.routes);
  emit_logging(out, config.logging);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace ncgw::config
