#include "gateway/core_factory.h"

#include <spdlog/spdlog.h>
#include <sys/random.h>

#include <algorithm>

#include "config/loader.h"
#include "crypto/secure_core.h"
#include "gateway/log_once.h"
#include "gateway/route_probe.h"
#include "gateway/secure_random.h"
#include "gateway/udp_port.h"
#include "gateway/udt_role.h"
#include "transports/plain/plain_core.h"
#include "transports/tcpnc/tcpnc_core.h"
#include "transports/udt/mss_rule.h"
#include "transports/udt/udt_tunnel_core.h"

namespace ncgw::gateway {

namespace {

constexpr std::size_t kIpv4Header = 20;
constexpr std::size_t kIpv6Header = 40;
constexpr std::size_t kUdpHeader = 8;

// FNV-1a over the bytes of `text`.
std::uint32_t fnv1a(const std::string& text) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : text) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

// The seed a core runs with: the configured seed mixed with the gateway's name and 64 bits from
// the host's random source, so a restarted gateway gets new session and socket ids (peers detect
// the restart). Logged at debug level only (session ids derive from it).
std::uint64_t run_seed(std::uint64_t configured, const std::string& local, const config::Peer& peer,
                       const CoreHost& host) {
  std::uint64_t fresh = 0;
  host.random({reinterpret_cast<std::uint8_t*>(&fresh), sizeof fresh});
  const std::uint64_t seed = configured ^ (std::uint64_t{fnv1a(local)} << 32) ^ fresh;
  spdlog::debug("peer {}: {} seed {} (configured {})", peer.name, config::to_string(peer.transport), seed,
                configured);
  return seed;
}

// Bytes of the record a secured peer's datagrams travel in (0 for `security: none`).
std::size_t record_overhead(const config::Peer& peer) {
  return peer.security == config::Security::aead ? crypto::wire::kRecordOverhead : 0;
}

// `inner` wrapped in the secure layer with `keys` (placeholders when null).
std::unique_ptr<transport::Core> make_secure(std::unique_ptr<transport::Core> inner, const config::GatewayConfig& gw,
                                             const config::Peer& peer, const PeerKeys* keys, const CoreHost& env) {
  crypto::SessionSettings s;
  const PeerKeys placeholder{};
  const PeerKeys& k = keys ? *keys : placeholder;
  s.local_private = k.local_private;
  s.remote_public = k.remote_public;
  s.psk = k.psk;
  const auto host = *config::parse_ip(peer.endpoint_host);
  s.peer_address.assign(host.bytes.begin(), host.bytes.end());
  s.peer_address.push_back(static_cast<std::uint8_t>(peer.endpoint_port >> 8));
  s.peer_address.push_back(static_cast<std::uint8_t>(peer.endpoint_port & 0xff));
  s.rekey_after = std::chrono::seconds(peer.rekey_after_s);
  s.reject_after = s.rekey_after + std::chrono::seconds(60);
  s.wall_offset_ns = env.wall_offset_ns;
  s.random = env.random;
  const std::size_t inner_datagram = underlay_max_datagram(gw, peer) - record_overhead(peer);
  return std::make_unique<crypto::SecureCore>(std::move(inner), std::move(s), inner_datagram);
}

std::unique_ptr<transport::Core> make_plain(const config::GatewayConfig& gw, const config::Peer& peer) {
  plain::PlainCoreSettings s;
  s.session_id = plain_session_id(gw, peer);
  s.max_datagram = underlay_max_datagram(gw, peer) - record_overhead(peer);
  return std::make_unique<plain::PlainCore>(s);
}

std::unique_ptr<transport::Core> make_tcpnc(const config::GatewayConfig& gw, const config::Peer& peer,
                                            const CoreHost& host) {
  const config::TcpncSettings& c = peer.tcpnc;
  tcpnc::TcpncCoreSettings s;
  switch (c.congestion_control) {
    case config::CongestionControl::newreno: s.congestion_control = tcpnc::CcAlgorithm::kNewReno; break;
    case config::CongestionControl::cubic: s.congestion_control = tcpnc::CcAlgorithm::kCubic; break;
    case config::CongestionControl::bbr: s.congestion_control = tcpnc::CcAlgorithm::kBbr; break;
  }
  s.cwnd_max_packets = c.cwnd_max_packets;
  s.link_buffer_packets = c.link_buffer_packets;
  s.sending_buffer_packets = c.sending_buffer_packets;
  s.n_min = c.n_min;
  s.n_max = c.n_max;
  s.k_max = c.k_max;
  s.r_max = c.r_max;
  s.retransmission_target = c.retransmission_target;
  s.idle_retransmission_target = c.idle_retransmission_target;
  s.cw_rtt_fraction = c.cw_rtt_fraction;
  s.sparse_flow_priority = c.sparse_flow_priority;
  s.header_compression = c.header_compression;
  s.fixed_n = c.fixed_n;
  s.fixed_k = c.fixed_k;
  s.rto_min_ms = c.rto_min_ms;
  s.keepalive_ms = c.keepalive_ms;
  s.dead_peer_ms = c.dead_peer_ms;
  s.seed = c.seed;
  s.max_datagram_bytes = static_cast<std::uint32_t>(underlay_max_datagram(gw, peer) - record_overhead(peer));
  return std::make_unique<tcpnc::TcpncCore>(s, run_seed(c.seed, gw.name, peer, host));
}

// `udt.mss: auto`: paper 000's most suitable MSS at connection set-up, the smaller of eq. 15 and
// the path MTU. Before any measurement of the path's bit error rate eq. 15 sets no limit, so this
// is the path MTU the kernel holds toward the peer (at most tun.underlay_mtu).
std::uint32_t auto_udt_mss(const config::GatewayConfig& gw, const config::Peer& peer, const UnderlayEndpoint& to) {
  const std::uint32_t mtu = std::min(gw.tun.underlay_mtu, route_mtu(to).value_or(gw.tun.underlay_mtu));
  const udt::MssRuleInputs unmeasured{};  // P_b unknown (0): eq. 15 is unbounded
  const std::uint32_t mss = udt::suitable_mss(unmeasured, mtu, udt::wire::kMinMss);
  spdlog::debug("peer {}: udt.mss auto: {} (path MTU toward {})", peer.name, mss, to.to_string());
  return mss;
}

std::unique_ptr<transport::Core> make_udt(const config::GatewayConfig& gw, const config::Peer& peer,
                                          const CoreHost& env) {
  const transport::IpAddress host = *config::parse_ip(peer.endpoint_host);
  udt::UdtTunnelSettings s = udt::default_tunnel_settings();
  std::copy(host.bytes.begin(), host.bytes.end(), s.peer.bytes.begin());
  s.peer.v6 = host.v6;
  s.peer.port = peer.endpoint_port ? peer.endpoint_port : config::default_port(peer.transport);
  UnderlayEndpoint peer_endpoint;
  std::copy(host.bytes.begin(), host.bytes.end(), peer_endpoint.bytes.begin());
  peer_endpoint.v6 = host.v6;
  peer_endpoint.port = s.peer.port;
  s.role = udt_role_for(gw, peer, peer_endpoint);
  s.conn.mss = peer.udt.mss_auto ? auto_udt_mss(gw, peer, peer_endpoint) : peer.udt.mss;
  s.conn.ip_udp_overhead = static_cast<std::uint32_t>(
      (host.v6 ? udt::wire::kIpv6UdpOverhead : udt::wire::kIpUdpOverhead) + record_overhead(peer));
  s.conn.flight_flag_size = peer.udt.flight_flag_size;
  s.conn.send_buffer_packets = peer.udt.send_buffer_packets;
  s.conn.recv_buffer_packets = peer.udt.recv_buffer_packets;
  switch (peer.udt.congestion_control) {
    case config::UdtCongestionControl::udt4: s.conn.congestion_control = udt::CcKind::udt4; break;
    case config::UdtCongestionControl::paudt: s.conn.congestion_control = udt::CcKind::paudt; break;
    case config::UdtCongestionControl::bbr: s.conn.congestion_control = udt::CcKind::bbr; break;
  }
  s.conn.initial_window = static_cast<std::int32_t>(peer.udt.initial_window);
  s.seed = run_seed(peer.udt.seed, gw.name, peer, env);
  s.entrance_queue_ms = peer.udt.entrance_queue_ms;
  s.channels = peer.udt.channels;
  if (s.role == udt::TunnelRole::rendezvous && s.channels != 1) {
    spdlog::warn("peer {}: udt.channels {} needs a caller and a listener; rendezvous runs one channel",
                 peer.name, peer.udt.channels);
  }
  // A restarted listener cannot tell the caller (UDT4 has no reset): the caller notices through
  // silence. 3 s keeps the end hosts' TCP sessions alive across a peer restart.
  s.conn.peer_idle_timeout_us = 3'000'000;
  return std::make_unique<udt::UdtTunnelCore>(s);
}

}  // namespace

std::size_t underlay_max_datagram(const config::GatewayConfig& gw, const config::Peer& peer) {
  const transport::IpAddress host = *config::parse_ip(peer.endpoint_host);
  const std::size_t ip = host.v6 ? kIpv6Header : kIpv4Header;
  return gw.tun.underlay_mtu - ip - kUdpHeader;
}

std::uint16_t listen_port(const config::GatewayConfig& gw, config::TransportKind kind) {
  switch (kind) {
    case config::TransportKind::plain: return gw.listen.plain_port;
    case config::TransportKind::tcpnc: return gw.listen.tcpnc_port;
    case config::TransportKind::udt: return gw.listen.udt_port;
  }
  return 0;
}

std::string endpoint_key(const UnderlayEndpoint& e) {
  std::string key(1, e.v6 ? '\x06' : '\x04');
  key.append(reinterpret_cast<const char*>(e.bytes.data()), e.v6 ? 16 : 4);
  key.push_back(static_cast<char>(e.port >> 8));
  key.push_back(static_cast<char>(e.port & 0xff));
  return key;
}

std::uint32_t plain_session_id(const UnderlayEndpoint& local, const UnderlayEndpoint& peer) {
  const bool local_first = endpoint_before(local, peer);
  const UnderlayEndpoint& a = local_first ? local : peer;
  const UnderlayEndpoint& b = local_first ? peer : local;
  return std::max<std::uint32_t>(1, fnv1a(endpoint_key(a) + endpoint_key(b)));
}

std::uint32_t plain_session_id(const config::GatewayConfig& gw, const config::Peer& peer) {
  if (peer.plain.session_id != 0) return peer.plain.session_id;
  const auto remote = parse_endpoint(peer.endpoint_host, peer.endpoint_port);
  const auto local = remote ? local_endpoint_toward(gw.listen, *remote, gw.listen.plain_port) : std::nullopt;
  if (local) return plain_session_id(*local, *remote);
  // No route to the peer now: fall back on something both sides still share, the two names.
  warn_once("plain-session-names:" + peer.name,
            fmt::format("peer {}: no route to {}; plain session id derived from the gateway names instead of "
                        "the endpoints (set plain.session_id on both sides if they differ)",
                        peer.name, peer.endpoint_host));
  const bool local_first = name_before(gw.name, peer.name);
  const std::string& a = local_first ? gw.name : peer.name;
  const std::string& b = local_first ? peer.name : gw.name;
  return std::max<std::uint32_t>(1, fnv1a(a + "|" + b));
}

std::uint32_t auto_tun_mtu(const config::GatewayConfig& gw) {
  // No peer: as for plain over IPv4 (the smallest overhead a peer added later would need).
  const std::size_t plain_overhead = kIpv4Header + kUdpHeader + plain::kHeaderSize;
  if (gw.peers.empty()) return gw.tun.underlay_mtu - static_cast<std::uint32_t>(plain_overhead);
  std::size_t limit = kMaxDatagram;
  for (const auto& p : gw.peers) limit = std::min(limit, make_core(gw, p)->max_payload());
  return static_cast<std::uint32_t>(limit);
}

// The bare transport core of `peer`.
static std::unique_ptr<transport::Core> make_transport(const config::GatewayConfig& gw, const config::Peer& peer,
                                                       const CoreHost& host) {
  switch (peer.transport) {
    case config::TransportKind::plain: return make_plain(gw, peer);
    case config::TransportKind::tcpnc: return make_tcpnc(gw, peer, host);
    case config::TransportKind::udt: return make_udt(gw, peer, host);
  }
  throw TransportUnavailable("peer '" + peer.name + "': unknown transport");
}

CoreHost system_core_host() {
  timespec rt{};
  clock_gettime(CLOCK_REALTIME, &rt);
  return {[](crypto::MutBytes out) { secure_random(out); },
          std::int64_t{rt.tv_sec} * 1'000'000'000 + rt.tv_nsec};
}

std::unique_ptr<transport::Core> make_core(const config::GatewayConfig& gw, const config::Peer& peer,
                                           const PeerKeys* keys, const CoreHost* host) {
  const CoreHost system = host ? CoreHost{} : system_core_host();
  const CoreHost& h = host ? *host : system;
  auto core = make_transport(gw, peer, h);
  if (peer.security == config::Security::none) return core;
  return make_secure(std::move(core), gw, peer, keys, h);
}

}  // namespace ncgw::gateway
