// Reader of the `peers` sequence: names, endpoints, transport kind and its settings block.
#include <map>

#include "config/endpoint.h"
#include "config/scalars.h"
#include "config/sections.h"

namespace ncgw::config::detail {
namespace {

// Fails unless a peer at `host` can be reached from a socket bound to the listen address.
void check_family(const Node& node, const IpAddress& host, const ListenConfig& listen) {
  const auto local = parse_ip(listen.address);
  if (!local || local->v6 == host.v6) return;
  const bool dual_stack = local->v6 && *local == IpAddress{true, {}};  // "::" also reaches IPv4
  if (dual_stack) return;
  node.fail(std::string("expected an IPv") + (local->v6 ? "6" : "4") +
            " address like listen.address (" + listen.address + "), got " + node.describe());
}

// False for the unspecified address and multicast groups (0.0.0.0, ::, 224.0.0.0/4, ff00::/8).
bool unicast(const IpAddress& a) {
  if (a == IpAddress{a.v6, {}}) return false;
  return a.v6 ? a.bytes[0] != 0xff : (a.bytes[0] & 0xf0) != 0xe0;
}

// The endpoint: canonical host text and port (the transport's default when not written).
void read_endpoint(const Node& node, const ListenConfig& listen, Peer& peer) {
  const auto parsed = parse_endpoint(read_string(node));
  if (const auto* message = std::get_if<std::string>(&parsed)) node.fail(*message);
  const Endpoint& e = std::get<Endpoint>(parsed);
  if (!unicast(e.host)) node.fail("expected a unicast address, got " + node.describe());
  check_family(node, e.host, listen);
  peer.endpoint_host = to_string(e.host);
  peer.endpoint_port = e.port.value_or(default_port(peer.transport));
}

// Reads the settings block named `kind`, which must match the peer's transport.
void read_settings(const Node& peer_node, TransportKind kind, const GatewayConfig& config, Peer& peer) {
  const auto block = peer_node.find(to_string(kind));
  if (!block) return;
  if (kind != peer.transport) {
    block->fail("settings for transport " + std::string(to_string(kind)) +
                ", but this peer's transport is " + std::string(to_string(peer.transport)));
  }
  switch (kind) {
    case TransportKind::plain: peer.plain = read_plain(*block); break;
    case TransportKind::tcpnc: peer.tcpnc = read_tcpnc(*block); break;
    case TransportKind::udt: peer.udt = read_udt(*block, config.tun.underlay_mtu); break;
  }
}

// True for the 44-character standard base64 text of 32 bytes (as `ncgw genkey` writes it).
bool key_text(std::string_view t) {
  if (t.size() != 44 || t.back() != '=') return false;
  for (std::size_t i = 0; i < 43; ++i) {
    const char c = t[i];
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
    if (!ok) return false;
  }
  return true;
}

// The security keys of a peer: `security: none`, or a public key and the gateway's
// private key file, an optional pre-shared key file and the rekey interval.
void read_security(const Node& node, const GatewayConfig& config, Peer& peer) {
  if (const auto sec = node.find("security")) peer.security = read_choice<Security>(*sec, kSecurityNames);
  if (peer.security == Security::none) {
    for (const char* key : {"public_key", "preshared_key_file", "rekey_after_s"}) {
      if (const auto n = node.find(key)) n->fail(std::string(key) + " has no effect with security: none");
    }
    return;   // check-config and the daemon warn about every such peer
  }
  const auto pub = node.find("public_key");
  if (!pub) node.fail("missing key 'public_key' (the peer's `ncgw pubkey`), or write `security: none` for a plaintext peer");
  peer.public_key = read_string(*pub);
  if (!key_text(peer.public_key)) pub->fail("expected a base64 key of 44 characters (ncgw pubkey), got " + pub->describe());
  if (config.private_key_file.empty()) {
    pub->fail("a peer with a public_key needs gateway.private_key_file (ncgw genkey > FILE)");
  }
  if (const auto n = node.find("preshared_key_file")) peer.preshared_key_file = read_string(*n);
  if (const auto n = node.find("rekey_after_s")) peer.rekey_after_s = read_uint_as<std::uint32_t>(*n, 1, 120);
}

// One element of `peers`.
Peer read_peer(const Node& node, const GatewayConfig& config) {
  static constexpr std::array<std::string_view, 11> keys{"name", "endpoint", "transport", "plain", "tcpnc", "udt",
                                                         "fudp", "security", "public_key", "preshared_key_file",
                                                         "rekey_after_s"};
  node.check_keys(keys);
  Peer peer;
  const Node name = node.require("name");
  peer.name = read_string(name);
  if (!valid_name(peer.name)) {
    name.fail("expected 1 to 32 characters from A-Z a-z 0-9 _ -, got " + name.describe());
  }
  if (peer.name == config.name) name.fail("a peer cannot have the gateway's own name '" + peer.name + "'");
  const Node endpoint = node.require("endpoint");
  peer.transport = read_choice<TransportKind>(node.require("transport"), kTransportNames);
  read_endpoint(endpoint, config.listen, peer);
  for (const auto& [word, kind] : kTransportNames) read_settings(node, kind, config, peer);
  read_security(node, config, peer);
  peer.fudp = config.fudp;
  if (const auto n = node.find("fudp")) peer.fudp = read_fudp(*n, config.fudp);
  if (peer.transport == TransportKind::udt && peer.udt.mss_auto) {
    // auto (the default) is bounded by the underlay, also without a udt block; a written number
    // is checked against it in read_udt.
    peer.udt.mss = config.tun.underlay_mtu;
  }
  return peer;
}

}  // namespace

std::vector<Peer> read_peers(const Node& node, const GatewayConfig& config) {
  std::vector<Peer> peers;
  std::map<std::string, int> name_lines;      // name -> line of the peer that took it
  std::map<std::string, std::string> owners;  // "transport endpoint" -> peer name
  for (const Node& element : node.elements()) {
    Peer peer = read_peer(element, config);
    const Node name = element.require("name");
    const auto [first, fresh] = name_lines.emplace(peer.name, name.line());
    if (!fresh) name.fail("duplicate peer name '" + peer.name + "' (first at line " + std::to_string(first->second) + ")");
    const std::string where = format_endpoint(*parse_ip(peer.endpoint_host), peer.endpoint_port);
    const auto [owner, unused] = owners.emplace(std::string(to_string(peer.transport)) + " " + where, peer.name);
    if (!unused) {
      element.require("endpoint").fail("endpoint " + where + " with transport " +
                                       std::string(to_string(peer.transport)) +
                                       " is already peer '" + owner->second + "'");
    }
    peers.push_back(std::move(peer));
  }
  return peers;
}

}  // namespace ncgw::config::detail
