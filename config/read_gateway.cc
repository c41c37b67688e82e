// Reader of the `gateway` section: name, control socket, and the policy-routing keys
// (internal_interfaces, route_table, rule_priority; docs/cascade.md).
#include "config/scalars.h"
#include "config/sections.h"

namespace ncgw::config::detail {
namespace {

constexpr std::size_t kMaxSocketPath = 107;        // sun_path is 108 bytes with the NUL
constexpr std::uint32_t kMaxRulePriority = 32765;  // below the kernel's main-table rule (32766)

// gateway.internal_interfaces: distinct interface names, not "lo" (its rule is always added).
std::vector<std::string> read_internal_interfaces(const Node& node) {
  std::vector<std::string> out;
  for (const Node& element : node.elements()) {
    const std::string name = element.yaml().IsScalar() ? element.yaml().Scalar() : "";
    if (!valid_interface_name(name)) {
      element.fail("expected an interface name of 1 to 15 characters from A-Z a-z 0-9 _ . -, got " +
                   element.describe());
    }
    if (name == "lo") {
      element.fail("'lo' is implied: locally originated traffic always uses the tunnel routes");
    }
    for (const std::string& seen : out) {
      if (seen == name) element.fail("duplicate interface '" + name + "'");
    }
    out.push_back(name);
  }
  return out;
}

// gateway.route_table: a table id other than 0 (unspec) and 253..255 (default, main, local).
std::uint32_t read_route_table(const Node& node) {
  const auto table = read_uint_as<std::uint32_t>(node, 1, 4294967295u);
  if (table >= 253 && table <= 255) {
    node.fail("expected a table other than 253, 254, 255 (the kernel's default, main, local), got " +
              std::to_string(table));
  }
  return table;
}

}  // namespace

bool valid_name(std::string_view name) {
  if (name.empty() || name.size() > 32) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

bool valid_interface_name(std::string_view name) {
  if (name.empty() || name.size() > 15 || name == "." || name == "..") return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

bool valid_user_name(std::string_view name) {
  if (name.empty() || name.size() > 32) return false;
  if (!((name[0] >= 'a' && name[0] <= 'z') || name[0] == '_')) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

// gateway.workers: "auto" (0) or an integer in 1..kMaxWorkers.
static std::uint32_t read_workers(const Node& node) {
  const bool scalar = node.yaml().IsScalar();
  if (scalar && node.yaml().Scalar() == "auto") return 0;
  const auto value = scalar ? parse_decimal(node.yaml().Scalar()) : std::nullopt;
  if (!value || *value < 1 || *value > kMaxWorkers) {
    node.fail("expected 'auto' or an integer in 1.." + std::to_string(kMaxWorkers) + ", got " +
              (value ? node.yaml().Scalar() : node.describe()));
  }
  return static_cast<std::uint32_t>(*value);
}

void read_gateway(const Node& node, GatewayConfig& out) {
  static constexpr std::array<std::string_view, 8> keys{"name", "control_socket", "internal_interfaces",
                                                        "route_table", "rule_priority", "private_key_file",
                                                        "user", "workers"};
  node.check_keys(keys);
  const Node name = node.require("name");
  out.name = read_string(name);
  if (!valid_name(out.name)) {
    name.fail("expected 1 to 32 characters from A-Z a-z 0-9 _ -, got " + name.describe());
  }
  out.control_socket = default_control_socket(out.name);
  if (const auto socket = node.find("control_socket")) {
    out.control_socket = read_string(*socket);
    if (out.control_socket.empty() || out.control_socket.front() != '/' ||
        out.control_socket.size() > kMaxSocketPath) {
      socket->fail("expected an absolute path of at most 107 bytes, got " + socket->describe());
    }
  }
  if (const auto key = node.find("private_key_file")) {
    out.private_key_file = read_string(*key);
    if (out.private_key_file.empty()) key->fail("expected a file path, got " + key->describe());
  }
  if (const auto n = node.find("user")) {
    out.user = read_string(*n);
    if (!valid_user_name(out.user)) {
      n->fail("expected auto, root or a user name of 1 to 32 characters from a-z 0-9 _ - . (starting with a "
              "letter or _), got " + n->describe());
    }
  }
  if (const auto n = node.find("internal_interfaces")) out.internal_interfaces = read_internal_interfaces(*n);
  if (const auto n = node.find("route_table")) out.route_table = read_route_table(*n);
  if (const auto n = node.find("rule_priority")) {
    out.rule_priority = read_uint_as<std::uint32_t>(*n, 1, kMaxRulePriority);
  }
  if (const auto n = node.find("workers")) out.workers = read_workers(*n);
}

void check_internal_interfaces(const Node& gateway, const GatewayConfig& config) {
  const auto list = gateway.find("internal_interfaces");
  if (!list) return;
  const std::vector<Node> elements = list->elements();
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (config.internal_interfaces[i] == config.tun.name) {
      elements[i].fail("the TUN device '" + config.tun.name +
                       "' cannot be internal (packets from the tunnel would re-enter it)");
    }
  }
}

}  // namespace ncgw::config::detail
