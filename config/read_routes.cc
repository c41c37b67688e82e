// Reader of the `routes` sequence: remote prefixes and the peer that reaches each.
#include <map>

#include "config/scalars.h"
#include "config/sections.h"

namespace ncgw::config::detail {
namespace {

// "gw2, gw3": the configured peer names for an error message.
std::string peer_names(const GatewayConfig& config) {
  std::string out;
  for (const Peer& p : config.peers) out += (out.empty() ? "" : ", ") + p.name;
  return out;
}

// A route prefix: valid, with its host bits zero.
Prefix read_route_prefix(const Node& node) {
  const auto prefix = parse_prefix(read_string(node));
  if (!prefix) node.fail("expected a prefix (10.2.0.0/24, fd00:2::/64), got " + node.describe());
  const Prefix network = network_of(*prefix);
  if (!(network == *prefix)) {
    node.fail("host bits are set in " + to_string(*prefix) + "; expected " + to_string(network));
  }
  return *prefix;
}

// The `via` peer name: one of the configured peers.
std::string read_via(const Node& node, const GatewayConfig& config) {
  const std::string via = read_string(node);
  for (const Peer& p : config.peers) {
    if (p.name == via) return via;
  }
  if (config.peers.empty()) node.fail("no peer named '" + via + "': no peers are configured");
  node.fail("expected the name of a peer (" + peer_names(config) + "), got " + node.describe());
}

}  // namespace

std::vector<Route> read_routes(const Node& node, const GatewayConfig& config) {
  static constexpr std::array<std::string_view, 2> keys{"prefix", "via"};
  std::vector<Route> routes;
  std::map<std::string, int> lines;  // prefix text -> line of its first route
  for (const Node& element : node.elements()) {
    element.check_keys(keys);
    const Node prefix_node = element.require("prefix");
    const Node via_node = element.require("via");
    Route route{read_route_prefix(prefix_node), read_via(via_node, config)};
    const auto [first, fresh] = lines.emplace(to_string(route.prefix), prefix_node.line());
    if (!fresh) {
      prefix_node.fail("duplicate route for " + first->first + " (first at line " +
                       std::to_string(first->second) + ")");
    }
    routes.push_back(std::move(route));
  }
  return routes;
}

}  // namespace ncgw::config::detail
