// The plain session id both gateways derive without talking: from the ordered pair of underlay
// endpoints, so two gateways agree whatever names they give each other.
#include <gtest/gtest.h>

#include "gateway/core_factory.h"

namespace ncgw::gateway {
namespace {

// A gateway named `name` bound to `address`, with one plain peer named `peer_name` at `peer_ip`.
config::GatewayConfig gateway(const std::string& name, const std::string& address, const std::string& peer_name,
                              const std::string& peer_ip) {
  config::GatewayConfig g;
  g.name = name;
  g.listen.address = address;
  config::Peer p;
  p.name = peer_name;
  p.endpoint_host = peer_ip;
  p.endpoint_port = g.listen.plain_port;
  p.transport = config::TransportKind::plain;
  g.peers.push_back(p);
  return g;
}

TEST(PlainSessionId, GatewaysNamedUnlikeTheirPeerEntriesAgree) {
  // site-a and site-b call each other gw2 and gw1: by names they would derive different ids.
  const auto a = gateway("site-a", "192.168.1.1", "gw2", "192.168.1.2");
  const auto b = gateway("site-b", "192.168.1.2", "gw1", "192.168.1.1");
  const auto ia = plain_session_id(a, a.peers[0]), ib = plain_session_id(b, b.peers[0]);
  EXPECT_EQ(ia, ib);
  EXPECT_NE(ia, 0u);
}

TEST(PlainSessionId, OtherEndpointsGiveOtherIds) {
  const auto a = gateway("a", "192.168.1.1", "b", "192.168.1.2");
  const auto c = gateway("a", "192.168.1.1", "b", "192.168.1.3");
  EXPECT_NE(plain_session_id(a, a.peers[0]), plain_session_id(c, c.peers[0]));
}

TEST(PlainSessionId, MatchesTheDocumentedDerivation) {
  // FNV-1a (32) over 04 c0a80101 157c 04 c0a80102 157c (docs/plain-wire.md), computed independently
  // by tests/netns/lib/forge.py: 192.168.1.1:5500 and 192.168.1.2:5500.
  const auto ep = [](std::uint8_t last) {
    UnderlayEndpoint e;
    e.bytes[0] = 192, e.bytes[1] = 168, e.bytes[2] = 1, e.bytes[3] = last;
    e.port = 5500;
    return e;
  };
  EXPECT_EQ(plain_session_id(ep(2), ep(1)), plain_session_id(ep(1), ep(2)));
  EXPECT_EQ(plain_session_id(ep(1), ep(2)), 0x2efef7d2u);
}

TEST(PlainSessionId, ConfiguredIdWins) {
  auto a = gateway("a", "192.168.1.1", "b", "192.168.1.2");
  a.peers[0].plain.session_id = 77;
  EXPECT_EQ(plain_session_id(a, a.peers[0]), 77u);
}

}  // namespace
}  // namespace ncgw::gateway
