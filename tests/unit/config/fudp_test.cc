// The `fudp` blocks: defaults, top level inherited by every peer, a peer's keys over it, the
// round trip through to_yaml, and exact errors for bad values.
#include <gtest/gtest.h>

#include "config/loader.h"

namespace ncgw::config {
namespace {

// Loads `yaml` labelled "f.yaml"; the config, or a failed test.
GatewayConfig load_ok(const std::string& yaml) {
  const LoadResult r = load_config_string(yaml, "f.yaml");
  if (const auto* e = std::get_if<ConfigError>(&r)) {
    ADD_FAILURE() << format_error(*e);
    return {};
  }
  return std::get<GatewayConfig>(r);
}

// The formatted error of `yaml`, or "" if it loads.
std::string error_of(const std::string& yaml) {
  const LoadResult r = load_config_string(yaml, "f.yaml");
  const auto* e = std::get_if<ConfigError>(&r);
  return e ? format_error(*e) : "";
}

constexpr const char* kPeers = R"(
peers:
  - {name: a, endpoint: 10.0.0.2, transport: tcpnc, security: none}
  - {name: b, endpoint: 10.0.0.3, transport: plain, security: none, fudp: {period_ms: 500, shape: false}}
)";

TEST(config_fudp, OffByDefaultWithThePapersParameters) {
  const GatewayConfig c = load_ok(std::string("gateway: {name: gw1}\n") + kPeers);
  EXPECT_FALSE(c.fudp.enabled);
  EXPECT_EQ(c.fudp.period_ms, 5000u);
  EXPECT_DOUBLE_EQ(c.fudp.alpha, 0.875);
  EXPECT_DOUBLE_EQ(c.fudp.beta, 0.25);
  EXPECT_EQ(c.peers[0].fudp, FudpSettings{});
  EXPECT_EQ(to_yaml(c).find("\nfudp:"), std::string::npos);  // nothing written when all default
}

TEST(config_fudp, PeersInheritTheTopLevelAndOverrideKeys) {
  const GatewayConfig c = load_ok(std::string(
      "gateway: {name: gw1}\nfudp: {enabled: true, alpha: 0.5, flow_table_size: 100, idle_timeout_ms: 9000}\n") + kPeers);
  EXPECT_TRUE(c.peers[0].fudp.enabled);
  EXPECT_DOUBLE_EQ(c.peers[0].fudp.alpha, 0.5);
  EXPECT_EQ(c.peers[0].fudp.period_ms, 5000u);
  EXPECT_TRUE(c.peers[1].fudp.enabled);
  EXPECT_EQ(c.peers[1].fudp.period_ms, 500u);
  EXPECT_FALSE(c.peers[1].fudp.shape);
  EXPECT_EQ(c.peers[1].fudp.flow_table_size, 100u);
  const std::string text = to_yaml(c);
  EXPECT_EQ(load_ok(text), c) << text;
}

TEST(config_fudp, ExactErrors) {
  EXPECT_EQ(error_of("gateway: {name: g}\nfudp: {alpha: 1}\n"),
            "f.yaml:2:15: fudp.alpha: expected a number in (0, 1), got 1");
  EXPECT_EQ(error_of("gateway: {name: g}\nfudp: {beta: 0}\n"),
            "f.yaml:2:14: fudp.beta: expected a number in (0, 1), got 0");
  EXPECT_EQ(error_of("gateway: {name: g}\nfudp: {period_ms: 5}\n"),
            "f.yaml:2:19: fudp.period_ms: expected an integer in 10..3600000, got 5");
  EXPECT_EQ(error_of("gateway: {name: g}\nfudp: {flow_table_size: 0}\n"),
            "f.yaml:2:25: fudp.flow_table_size: expected an integer in 1..1000000, got 0");
  EXPECT_EQ(error_of("gateway: {name: g}\nfudp: {period_ms: 6000, idle_timeout_ms: 1000}\n"),
            "f.yaml:2:42: fudp.idle_timeout_ms: idle_timeout_ms (1000) must be at least period_ms (6000): "
            "a flow would be forgotten before it is measured");
  EXPECT_EQ(error_of("gateway: {name: g}\nfudp: {enable: true}\n"),
            "f.yaml:2:8: fudp.enable: unknown key; did you mean 'enabled'?");
  EXPECT_EQ(error_of("gateway: {name: g}\nfudp: {enabled: yes please}\n"),
            "f.yaml:2:17: fudp.enabled: expected true or false, got 'yes please'");
  EXPECT_EQ(error_of("gateway: {name: g}\npeers:\n  - {name: a, endpoint: 10.0.0.2, transport: udt, security: none, fudp: {period_ms: 40000}}\n"),
            "f.yaml:3:85: peers[0].fudp.period_ms: idle_timeout_ms (30000) must be at least period_ms (40000): "
            "a flow would be forgotten before it is measured");
}

}  // namespace
}  // namespace ncgw::config
