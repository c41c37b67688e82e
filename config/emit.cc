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
void pair(YAML::Emitter& out, const char* key, const T& value, const char* comment = nullptr) {
  out << YAML::Key << key << YAML::Value << value;
  if (comment) out << YAML::Comment(comment);
}

// Integers go out as decimal text (the emitter would print uint8_t as a character).
std::string num(std::uint64_t v) { return std::to_string(v); }

void emit_gateway(YAML::Emitter& out, const GatewayConfig& c) {
  out << YAML::Key << "gateway" << YAML::Value << YAML::BeginMap;
  pair(out, "name", c.name);
  pair(out, "control_socket", c.control_socket);
  out << YAML::EndMap;
}

void emit_tun(YAML::Emitter& out, const TunConfig& t) {
  out << YAML::Key << "tun" << YAML::Value << YAML::BeginMap;
  pair(out, "name", t.name);
  if (t.mtu) {
    pair(out, "mtu", num(*t.mtu));
  } else {
    pair(out, "mtu", std::string("auto"), "underlay_mtu minus the tunnel's headers");
  }
  pair(out, "underlay_mtu", num(t.underlay_mtu));
  out << YAML::Key << "addresses" << YAML::Value;
  if (t.addresses.empty()) out << YAML::Flow;
  out << YAML::BeginSeq;
  for (const Prefix& p : t.addresses) out << to_string(p);
  out << YAML::EndSeq;
  pair(out, "on_exit", std::string(to_string(t.on_exit)));
  out << YAML::EndMap;
}

void emit_listen(YAML::Emitter& out, const ListenConfig& l) {
  out << YAML::Key << "listen" << YAML::Value << YAML::BeginMap;
  pair(out, "address", l.address);
  pair(out, "plain_port", num(l.plain_port));
  pair(out, "tcpnc_port", num(l.tcpnc_port));
  pair(out, "udt_port", num(l.udt_port));
  out << YAML::EndMap;
}

void emit_tcpnc(YAML::Emitter& out, const TcpncSettings& s) {
  pair(out, "congestion_control", std::string(to_string(s.congestion_control)));
  pair(out, "cwnd_max_packets", num(s.cwnd_max_packets));
  pair(out, "link_buffer_packets", num(s.link_buffer_packets),
       s.link_buffer_packets == 0 ? "0: r_max x cwnd_max_packets" : nullptr);
  pair(out, "sending_buffer_packets", num(s.sending_buffer_packets),
       s.sending_buffer_packets == 0 ? "0: cwnd_max_packets + link buffer" : nullptr);
  pair(out, "n_min", num(s.n_min));
  pair(out, "n_max", num(s.n_max));
  pair(out, "k_max", num(s.k_max));
  pair(out, "r_max", real(s.r_max));
  pair(out, "retransmission_target", real(s.retransmission_target));
  if (s.fixed_n && s.fixed_k) {
    pair(out, "fixed_n", num(*s.fixed_n));
    pair(out, "fixed_k", num(*s.fixed_k));
  }
  pair(out, "rto_min_ms", num(s.rto_min_ms));
  pair(out, "keepalive_ms", num(s.keepalive_ms));
  pair(out, "dead_peer_ms", num(s.dead_peer_ms));
  pair(out, "seed", num(s.seed));
}

void emit_udt(YAML::Emitter& out, const UdtSettings& s) {
  pair(out, "mss", num(s.mss));
  pair(out, "flight_flag_size", num(s.flight_flag_size));
  pair(out, "send_buffer_packets", num(s.send_buffer_packets));
  pair(out, "recv_buffer_packets", num(s.recv_buffer_packets));
  pair(out, "rendezvous", std::string(s.rendezvous ? "true" : "false"));
  pair(out, "channels", num(s.channels), s.channels == 0 ? "0: tuned from the RTT" : nullptr);
  pair(out, "seed", num(s.seed));
}

void emit_peer(YAML::Emitter& out, const Peer& p) {
  out << YAML::BeginMap;
  pair(out, "name", p.name);
  const auto host = parse_ip(p.endpoint_host);
  pair(out, "endpoint", host ? detail::format_endpoint(*host, p.endpoint_port) : p.endpoint_host);
  pair(out, "transport", std::string(to_string(p.transport)));
  out << YAML::Key << std::string(to_string(p.transport)) << YAML::Value << YAML::BeginMap;
  switch (p.transport) {
    case TransportKind::plain:
      pair(out, "session_id", num(p.plain.session_id),
           p.plain.session_id == 0 ? "0: derived from the two gateway names" : nullptr);
      break;
    case TransportKind::tcpnc: emit_tcpnc(out, p.tcpnc); break;
    case TransportKind::udt: emit_udt(out, p.udt); break;
  }
  out << YAML::EndMap << YAML::EndMap;
}

void emit_routes(YAML::Emitter& out, const std::vector<Route>& routes) {
  out << YAML::Key << "routes" << YAML::Value;
  if (routes.empty()) out << YAML::Flow;
  out << YAML::BeginSeq;
  for (const Route& r : routes) {
    out << YAML::BeginMap;
    pair(out, "prefix", to_string(r.prefix));
    pair(out, "via", r.via);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void emit_logging(YAML::Emitter& out, const LoggingConfig& l) {
  out << YAML::Key << "logging" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "level" << YAML::Value;
  if (l.level == "off") out << YAML::DoubleQuoted;  // plain `off` is a boolean to YAML 1.1 readers
  out << l.level;
  pair(out, "file", l.file, l.file.empty() ? "empty: stderr" : nullptr);
  out << YAML::EndMap;
}

}  // namespace

std::string to_yaml(const GatewayConfig& config) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  emit_gateway(out, config);
  emit_tun(out, config.tun);
  emit_listen(out, config.listen);
  out << YAML::Key << "peers" << YAML::Value;
  if (config.peers.empty()) out << YAML::Flow;
  out << YAML::BeginSeq;
  for (const Peer& p : config.peers) emit_peer(out, p);
  out << YAML::EndSeq;
  emit_routes(out, config.routes);
  emit_logging(out, config.logging);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace ncgw::config
