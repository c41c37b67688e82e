// The status document and its table form carry the gateway, interface and per-peer counters.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gateway/status_json.h"
#include "transports/plain/plain_core.h"

namespace ncgw::gateway {
namespace {

TEST(Status, JsonCarriesCountersAndPeerCoreStats) {
  config::GatewayConfig cfg;
  cfg.name = "gwA";
  config::Peer peer;
  peer.name = "gwB";
  GatewayCounters counters;
  counters.drop_unknown_sender = 7;
  PeerCounters pc;
  pc.datagrams_in = 3;
  plain::PlainCore core(plain::PlainCoreSettings{});
  const SocketAddress addr = SocketAddress::from(*config::parse_ip("192.0.2.1"), 5500);
  StatusInput in{cfg, counters, nullptr, std::chrono::seconds(2), {{&peer, &addr, &core, &pc}},
                 {{"0.0.0.0:5500", 4, 5}}};
  const auto doc = nlohmann::json::parse(render_status_json(in));
  EXPECT_EQ(doc["gateway"], "gwA");
  EXPECT_EQ(doc["counters"]["drop_unknown_sender"], 7);
  EXPECT_EQ(doc["peers"][0]["name"], "gwB");
  EXPECT_EQ(doc["peers"][0]["endpoint"], "192.0.2.1:5500");
  EXPECT_EQ(doc["peers"][0]["datagrams_in"], 3);
  EXPECT_TRUE(doc["peers"][0]["core"].contains("drop_malformed"));
  EXPECT_EQ(doc["peers"][0]["core"]["rx_lost"], 0);
  EXPECT_EQ(doc["peers"][0]["core"]["tx_while_peer_silent"], 0);
  EXPECT_EQ(doc["ports"][0]["local"], "0.0.0.0:5500");
  EXPECT_EQ(doc["ports"][0]["send_errors"], 4);
  EXPECT_EQ(doc["ports"][0]["receive_errors"], 5);

  const std::string table = render_status_table(doc.dump());
  EXPECT_NE(table.find("gateway gwA"), std::string::npos);
  EXPECT_NE(table.find("drop_unknown_sender"), std::string::npos);
  EXPECT_NE(table.find("peer gwB via plain at 192.0.2.1:5500"), std::string::npos);
  EXPECT_NE(table.find("udp port 0.0.0.0:5500"), std::string::npos);
  EXPECT_NE(table.find("receive_errors"), std::string::npos);
}

TEST(Status, TableRejectsMalformedDocument) {
  EXPECT_ANY_THROW(render_status_table("{not json"));
}

}  // namespace
}  // namespace ncgw::gateway
