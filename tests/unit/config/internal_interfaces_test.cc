// gateway.internal_interfaces / route_table / rule_priority (docs/cascade.md):
// values, defaults, the normalised output, and every rejection with its exact message.
#include <gtest/gtest.h>

#include <ostream>

#include "config/loader.h"

namespace ncgw::config {
namespace {

// Loads `yaml` labelled "test.yaml"; fails the test and returns {} if it is rejected.
GatewayConfig load_ok(const std::string& yaml) {
  const LoadResult result = load_config_string(yaml, "test.yaml");
  if (const auto* error = std::get_if<ConfigError>(&result)) {
    ADD_FAILURE() << format_error(*error);
    return {};
  }
  return std::get<GatewayConfig>(result);
}

// The formatted error `yaml` produces, or "" if it loads.
std::string load_error(const std::string& yaml) {
  const LoadResult result = load_config_string(yaml, "test.yaml");
  const auto* error = std::get_if<ConfigError>(&result);
  return error ? format_error(*error) : "";
}

TEST(config_internal_interfaces, AbsentMeansMainTableWithDefaults) {
  const GatewayConfig c = load_ok("gateway: {name: gw1}\n");
  EXPECT_TRUE(c.internal_interfaces.empty());
  EXPECT_EQ(c.route_table, 5100u);
  EXPECT_EQ(c.rule_priority, 5100u);
  const GatewayConfig empty = load_ok("gateway: {name: gw1, internal_interfaces: []}\n");
  EXPECT_TRUE(empty.internal_interfaces.empty());
}

TEST(config_internal_interfaces, ValuesAreReadInOrder) {
  const GatewayConfig c = load_ok(
      "gateway: {name: gw1, internal_interfaces: [lan0, eth1.20, br-lan], route_table: 1000,"
      " rule_priority: 32765}\n");
  EXPECT_EQ(c.internal_interfaces, (std::vector<std::string>{"lan0", "eth1.20", "br-lan"}));
  EXPECT_EQ(c.route_table, 1000u);
  EXPECT_EQ(c.rule_priority, 32765u);
  EXPECT_EQ(load_ok("gateway: {name: gw1, route_table: 4294967295}\n").route_table, 4294967295u);
  EXPECT_EQ(load_ok("gateway: {name: gw1, route_table: 252}\n").route_table, 252u);
  EXPECT_EQ(load_ok("gateway: {name: gw1, route_table: 256}\n").route_table, 256u);
}

TEST(config_internal_interfaces, NormalisedOutputLoadsBackEqual) {
  const GatewayConfig c = load_ok("gateway: {name: gw1, internal_interfaces: [lan0, lan1], route_table: 7}\n");
  const std::string text = to_yaml(c);
  EXPECT_NE(text.find("internal_interfaces: [lan0, lan1]"), std::string::npos) << text;
  EXPECT_NE(text.find("route_table: 7"), std::string::npos) << text;
  EXPECT_EQ(load_ok(text), c);
  const GatewayConfig d = load_ok("gateway: {name: gw1}\n");
  const std::string default_text = to_yaml(d);
  EXPECT_NE(default_text.find("internal_interfaces: []"), std::string::npos) << default_text;
  EXPECT_EQ(load_ok(default_text), d);
}

// One rejected document and its exact message.
struct BadCase {
  const char* name;
  const char* yaml;
  const char* message;
};

// gtest prints a failing parameter by its name.
void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

const BadCase kBad[] = {
    {"not_a_list", "gateway: {name: gw1, internal_interfaces: lan0}\n",
     "test.yaml:1:43: gateway.internal_interfaces: expected a sequence, got 'lan0'"},
    {"name_too_long", "gateway: {name: gw1, internal_interfaces: [lan0, abcdefghijklmnop]}\n",
     "test.yaml:1:50: gateway.internal_interfaces[1]: expected an interface name of 1 to 15 characters "
     "from A-Z a-z 0-9 _ . -, got 'abcdefghijklmnop'"},
    {"name_with_slash", "gateway: {name: gw1, internal_interfaces: [a/b]}\n",
     "test.yaml:1:44: gateway.internal_interfaces[0]: expected an interface name of 1 to 15 characters "
     "from A-Z a-z 0-9 _ . -, got 'a/b'"},
    {"element_mapping", "gateway: {name: gw1, internal_interfaces: [{x: 1}]}\n",
     "test.yaml:1:44: gateway.internal_interfaces[0]: expected an interface name of 1 to 15 characters "
     "from A-Z a-z 0-9 _ . -, got a mapping"},
    {"duplicate", "gateway: {name: gw1, internal_interfaces: [lan0, lan1, lan0]}\n",
     "test.yaml:1:56: gateway.internal_interfaces[2]: duplicate interface 'lan0'"},
    {"loopback", "gateway: {name: gw1, internal_interfaces: [lo]}\n",
     "test.yaml:1:44: gateway.internal_interfaces[0]: 'lo' is implied: locally originated traffic "
     "always uses the tunnel routes"},
    {"tun_default_name", "gateway: {name: gw1, internal_interfaces: [lan0, ncgw0]}\n",
     "test.yaml:1:50: gateway.internal_interfaces[1]: the TUN device 'ncgw0' cannot be internal "
     "(packets from the tunnel would re-enter it)"},
    {"tun_configured_name",
     "gateway:\n  name: gw1\n  internal_interfaces: [tun7]\ntun: {name: tun7}\n",
     "test.yaml:3:25: gateway.internal_interfaces[0]: the TUN device 'tun7' cannot be internal "
     "(packets from the tunnel would re-enter it)"},
    {"table_main", "gateway: {name: gw1, route_table: 254}\n",
     "test.yaml:1:35: gateway.route_table: expected a table other than 253, 254, 255 (the kernel's "
     "default, main, local), got 254"},
    {"table_zero", "gateway: {name: gw1, route_table: 0}\n",
     "test.yaml:1:35: gateway.route_table: expected an integer in 1..4294967295, got 0"},
    {"priority_zero", "gateway: {name: gw1, rule_priority: 0}\n",
     "test.yaml:1:37: gateway.rule_priority: expected an integer in 1..32765, got 0"},
    {"priority_main_rule", "gateway: {name: gw1, rule_priority: 32766}\n",
     "test.yaml:1:37: gateway.rule_priority: expected an integer in 1..32765, got 32766"},
    {"typo", "gateway: {name: gw1, internal_interface: [lan0]}\n",
     "test.yaml:1:22: gateway.internal_interface: unknown key; did you mean 'internal_interfaces'?"},
};

class config_internal_interfaces_bad : public testing::TestWithParam<BadCase> {};

TEST_P(config_internal_interfaces_bad, FailsWithExactMessage) {
  EXPECT_EQ(load_error(GetParam().yaml), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(all, config_internal_interfaces_bad, testing::ValuesIn(kBad),
                         [](const testing::TestParamInfo<BadCase>& info) { return info.param.name; });

}  // namespace
}  // namespace ncgw::config
