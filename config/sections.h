// Internal: one reader per section of the YAML document. Each checks its keys and bounds and
// fails on the offending node (LoadFailure); cross-section checks get what they need as arguments.
#pragma once
#include <array>
#include <string_view>
#include <utility>

#include "config/config.h"
#include "config/yaml_node.h"

namespace ncgw::config::detail {

// Gateway and peer names: [A-Za-z0-9_-]{1,32} (they become socket paths and log tags).
bool valid_name(std::string_view name);
// Linux interface names: 1..15 characters from A-Z a-z 0-9 _ . - (IFNAMSIZ 16), not "." or "..".
bool valid_interface_name(std::string_view name);
// gateway.user: a POSIX-style user name ([a-z_][a-z0-9_.-]{0,31}); "auto" and "root" pass too.
bool valid_user_name(std::string_view name);

// The `gateway` mapping: name (required), control_socket and the policy-routing keys into `out`.
void read_gateway(const Node& node, GatewayConfig& out);
// Fails if an internal interface of `gateway` (the node read_gateway read) is the TUN device.
void check_internal_interfaces(const Node& gateway, const GatewayConfig& config);
// The `tun` mapping.
TunConfig read_tun(const Node& node);
// The `listen` mapping.
ListenConfig read_listen(const Node& node);
// The `logging` mapping.
LoggingConfig read_logging(const Node& node);
// The `peers` sequence; needs gateway name, tun and listen already read into `config`.
std::vector<Peer> read_peers(const Node& node, const GatewayConfig& config);
// The `routes` sequence; needs the peers already read into `config`.
std::vector<Route> read_routes(const Node& node, const GatewayConfig& config);

// A `fudp` block (top level or inside a peer): its keys over `base`.
FudpSettings read_fudp(const Node& node, const FudpSettings& base);

// Transport settings blocks inside a peer.
PlainSettings read_plain(const Node& node);
TcpncSettings read_tcpnc(const Node& node);
UdtSettings read_udt(const Node& node, std::uint32_t underlay_mtu);

// Words accepted for the enums, in the order error messages list them.
inline constexpr std::array<std::pair<std::string_view, TransportKind>, 3> kTransportNames{{
    {"plain", TransportKind::plain}, {"tcpnc", TransportKind::tcpnc}, {"udt", TransportKind::udt}}};
inline constexpr std::array<std::pair<std::string_view, UdtRole>, 4> kUdtRoleNames{{
    {"auto", UdtRole::automatic}, {"caller", UdtRole::caller}, {"listener", UdtRole::listener},
    {"rendezvous", UdtRole::rendezvous}}};
inline constexpr std::array<std::pair<std::string_view, UdtCongestionControl>, 3> kUdtCongestionNames{{
    {"udt4", UdtCongestionControl::udt4}, {"paudt", UdtCongestionControl::paudt}, {"bbr", UdtCongestionControl::bbr}}};
inline constexpr std::array<std::pair<std::string_view, CongestionControl>, 3> kCongestionNames{{
    {"newreno", CongestionControl::newreno}, {"cubic", CongestionControl::cubic}, {"bbr", CongestionControl::bbr}}};
inline constexpr std::array<std::pair<std::string_view, Security>, 2> kSecurityNames{{
    {"aead", Security::aead}, {"none", Security::none}}};
inline constexpr std::array<std::pair<std::string_view, TunOnExit>, 2> kOnExitNames{{
    {"remove", TunOnExit::remove}, {"keep", TunOnExit::keep}}};
inline constexpr std::array<std::pair<std::string_view, TunOffload>, 2> kTunOffloadNames{{
    {"auto", TunOffload::automatic}, {"off", TunOffload::off}}};
inline constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kLogLevels{{
    {"trace", "trace"}, {"debug", "debug"}, {"info", "info"}, {"warn", "warn"},
    {"error", "error"}, {"critical", "critical"}, {"off", "off"}}};

}  // namespace ncgw::config::detail
