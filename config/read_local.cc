// Readers of the local sections: tun, listen, logging (gateway: read_gateway.cc).
#include <set>

#include "config/scalars.h"
#include "config/sections.h"

namespace ncgw::config::detail {
namespace {

constexpr std::uint32_t kMinMtu = 576;
constexpr std::uint32_t kMaxMtu = 9000;
constexpr std::uint32_t kMinMtuIpv6 = 1280;      // RFC 8200
constexpr std::uint32_t kOuterHeaders = 28;      // the smallest encapsulation: IPv4 + UDP

// tun.mtu: "auto" (unset) or an integer.
std::optional<std::uint32_t> read_mtu(const Node& node) {
  const bool scalar = node.yaml().IsScalar();
  if (scalar && node.yaml().Scalar() == "auto") return std::nullopt;
  const auto value = scalar ? parse_decimal(node.yaml().Scalar()) : std::nullopt;
  if (!value || *value < kMinMtu || *value > kMaxMtu) {
    const std::string got = value ? node.yaml().Scalar() : node.describe();
    node.fail("expected 'auto' or an integer in 576..9000, got " + got);
  }
  return static_cast<std::uint32_t>(*value);
}

// tun.addresses: distinct "address/length" entries.
std::vector<Prefix> read_addresses(const Node& node) {
  std::vector<Prefix> out;
  for (const Node& element : node.elements()) {
    const std::string text = element.yaml().IsScalar() ? element.yaml().Scalar() : "";
    const auto prefix = parse_prefix(text);
    if (!prefix || text.find('/') == std::string::npos) {
      element.fail("expected an address with prefix length (10.99.0.1/30, fd00::1/64), got " +
                   element.describe());
    }
    for (const Prefix& seen : out) {
      if (seen.address == prefix->address) element.fail("duplicate address " + to_string(prefix->address));
    }
    out.push_back(*prefix);
  }
  return out;
}

// True if any address is IPv6.
bool has_ipv6(const std::vector<Prefix>& addresses) {
  for (const Prefix& p : addresses) {
    if (p.address.v6) return true;
  }
  return false;
}

// Checks tun.mtu against the addresses and the underlay MTU.
void check_mtu(const Node& node, const TunConfig& tun) {
  if (!tun.mtu) return;
  if (has_ipv6(tun.addresses) && *tun.mtu < kMinMtuIpv6) {
    node.fail("expected at least 1280 because tun.addresses has an IPv6 address, got " +
              std::to_string(*tun.mtu));
  }
  if (*tun.mtu + kOuterHeaders > tun.underlay_mtu) {
    node.fail("expected at most underlay_mtu - 28 = " + std::to_string(tun.underlay_mtu - kOuterHeaders) +
              " (the tunnel adds at least an IPv4 and a UDP header), got " + std::to_string(*tun.mtu));
  }
}

// A listen port, distinct from the ports read before it.
std::uint16_t read_port(const Node& node, std::vector<std::pair<std::string, std::uint16_t>>& seen) {
  const auto port = read_uint_as<std::uint16_t>(node, 1, 65535);
  for (const auto& [path, other] : seen) {
    if (other == port) {
      node.fail("port " + std::to_string(port) + " is already " + path +
                "; each transport needs its own port");
    }
  }
  seen.emplace_back(node.path(), port);
  return port;
}

}  // namespace

TunConfig read_tun(const Node& node) {
  static constexpr std::array<std::string_view, 6> keys{"name", "mtu", "underlay_mtu", "addresses",
                                                        "on_exit", "offload"};
  node.check_keys(keys);
  TunConfig tun;
  if (const auto name = node.find("name")) {
    tun.name = read_string(*name);
    if (!valid_interface_name(tun.name)) {
      name->fail("expected an interface name of 1 to 15 characters from A-Z a-z 0-9 _ . -, got " +
                 name->describe());
    }
  }
  if (const auto n = node.find("underlay_mtu")) tun.underlay_mtu = read_uint_as<std::uint32_t>(*n, kMinMtu, kMaxMtu);
  if (const auto n = node.find("addresses")) tun.addresses = read_addresses(*n);
  if (const auto n = node.find("on_exit")) tun.on_exit = read_choice<TunOnExit>(*n, kOnExitNames);
  if (const auto n = node.find("offload")) tun.offload = read_choice<TunOffload>(*n, kTunOffloadNames);
  if (const auto n = node.find("mtu")) {
    tun.mtu = read_mtu(*n);
    check_mtu(*n, tun);
  }
  return tun;
}

ListenConfig read_listen(const Node& node) {
  static constexpr std::array<std::string_view, 4> keys{"address", "plain_port", "tcpnc_port", "udt_port"};
  node.check_keys(keys);
  ListenConfig listen;
  if (const auto n = node.find("address")) {
    const auto address = parse_ip(read_string(*n));
    if (!address) n->fail("expected an IP address (0.0.0.0, ::, 10.0.0.1), got " + n->describe());
    listen.address = to_string(*address);
  }
  std::vector<std::pair<std::string, std::uint16_t>> seen;
  if (const auto n = node.find("plain_port")) listen.plain_port = read_port(*n, seen);
  if (const auto n = node.find("tcpnc_port")) listen.tcpnc_port = read_port(*n, seen);
  if (const auto n = node.find("udt_port")) listen.udt_port = read_port(*n, seen);
  // Defaults that were not written must not collide with the written ports either.
  const bool clash = listen.plain_port == listen.tcpnc_port || listen.plain_port == listen.udt_port ||
                     listen.tcpnc_port == listen.udt_port;
  if (clash) node.fail("plain_port, tcpnc_port and udt_port must differ (defaults 5500, 5501, 5502)");
  return listen;
}

LoggingConfig read_logging(const Node& node) {
  static constexpr std::array<std::string_view, 2> keys{"level", "file"};
  node.check_keys(keys);
  LoggingConfig logging;
  if (const auto n = node.find("level")) logging.level = std::string(read_choice<std::string_view>(*n, kLogLevels));
  if (const auto n = node.find("file")) logging.file = read_string(*n);
  return logging;
}

}  // namespace ncgw::config::detail
