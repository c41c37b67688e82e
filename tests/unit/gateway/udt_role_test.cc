// udt.role: auto decides caller or listener from the ordered pair of underlay endpoints, so two
// gateways agree whatever names they give each other (with names they could both listen).
#include <gtest/gtest.h>

#include "config/loader.h"
#include "gateway/udt_role.h"

namespace ncgw::gateway {
namespace {

UnderlayEndpoint v4(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d, std::uint16_t port) {
  UnderlayEndpoint e;
  e.bytes[0] = a;
  e.bytes[1] = b;
  e.bytes[2] = c;
  e.bytes[3] = d;
  e.port = port;
  return e;
}

TEST(UdtRole, ExactlyOneSideCallsForEveryPair) {
  const UnderlayEndpoint eps[] = {v4(192, 168, 1, 1, 5502), v4(192, 168, 1, 2, 5502), v4(10, 0, 0, 9, 5502),
                                  v4(192, 168, 1, 1, 6000)};
  for (const auto& a : eps)
    for (const auto& b : eps) {
      if (&a == &b) continue;
      const auto ra = auto_udt_role(a, b), rb = auto_udt_role(b, a);
      EXPECT_NE(ra, rb) << a.to_string() << " vs " << b.to_string();
      EXPECT_NE(ra, udt::TunnelRole::rendezvous);
    }
  EXPECT_EQ(auto_udt_role(v4(192, 168, 1, 1, 5502), v4(192, 168, 1, 2, 5502)), udt::TunnelRole::caller);
  EXPECT_EQ(auto_udt_role(v4(192, 168, 1, 1, 6000), v4(192, 168, 1, 1, 5502)), udt::TunnelRole::listener);
}

TEST(UdtRole, MismatchedNamesStillAgree) {
  // Gateways site-a (192.168.1.1) and site-b (192.168.1.2) that call each other gw2 and gw1: by
  // names both would have listened ("gw2" < "site-a" and "gw1" < "site-b").
  config::GatewayConfig a, b;
  a.name = "site-a";
  a.listen.address = "192.168.1.1";
  b.name = "site-b";
  b.listen.address = "192.168.1.2";
  config::Peer to_b, to_a;
  to_b.name = "gw2";
  to_a.name = "gw1";
  const auto ra = udt_role_for(a, to_b, v4(192, 168, 1, 2, 5502));
  const auto rb = udt_role_for(b, to_a, v4(192, 168, 1, 1, 5502));
  EXPECT_EQ(ra, udt::TunnelRole::caller);
  EXPECT_EQ(rb, udt::TunnelRole::listener);
}

TEST(UdtRole, ExplicitRolesAreKept) {
  config::GatewayConfig g;
  config::Peer p;
  p.udt.role = config::UdtRole::listener;
  EXPECT_EQ(udt_role_for(g, p, v4(127, 0, 0, 1, 1)), udt::TunnelRole::listener);
  p.udt.role = config::UdtRole::rendezvous;
  EXPECT_EQ(udt_role_for(g, p, v4(127, 0, 0, 1, 1)), udt::TunnelRole::rendezvous);
}

TEST(UdtRole, WildcardListenUsesTheRoutedSourceAddress) {
  config::ListenConfig l;  // 0.0.0.0
  const auto local = local_endpoint_toward(l, v4(127, 0, 0, 1, 5502), l.udt_port);
  ASSERT_TRUE(local);
  EXPECT_EQ(local->to_string(), "127.0.0.1:5502");
}

TEST(UdtRole, ConfigRoleAndOlderRendezvousSpelling) {
  auto load = [](const std::string& udt) {
    return config::load_config_string("gateway: {name: gw1}\npeers:\n  - {name: gw2, endpoint: 10.0.0.2, "
                                      "transport: udt, security: none, udt: " + udt + "}\n", "t.yaml");
  };
  const auto ok = load("{role: listener}");
  ASSERT_TRUE(std::holds_alternative<config::GatewayConfig>(ok));
  EXPECT_EQ(std::get<config::GatewayConfig>(ok).peers[0].udt.role, config::UdtRole::listener);
  const auto old = load("{rendezvous: true}");
  ASSERT_TRUE(std::holds_alternative<config::GatewayConfig>(old));
  EXPECT_EQ(std::get<config::GatewayConfig>(old).peers[0].udt.role, config::UdtRole::rendezvous);
  const auto bad = load("{rendezvous: true, role: caller}");
  ASSERT_TRUE(std::holds_alternative<config::ConfigError>(bad));
  EXPECT_EQ(config::format_error(std::get<config::ConfigError>(bad)),
            "t.yaml:3:99: peers[0].udt.role: role caller contradicts rendezvous: true (say role: rendezvous)");
  const auto unknown = load("{role: server}");
  ASSERT_TRUE(std::holds_alternative<config::ConfigError>(unknown));
}

}  // namespace
}  // namespace ncgw::gateway
