// `ncgw status` shows the forwarding counters, per gateway and per peer, in JSON and in the table.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gateway/status_json.h"
#include "transports/plain/plain_core.h"

namespace ncgw::gateway {
namespace {

TEST(ForwardStatus, CountersInJsonAndTable) {
  config::GatewayConfig cfg;
  cfg.name = "gw2";
  config::Peer peer;
  peer.name = "gw3";
  GatewayCounters counters;
  counters.forwarded_packets = 11;
  counters.ttl_expired = 4;
  counters.icmp_time_exceeded_sent = 3;
  counters.icmp_suppressed = 1;
  PeerCounters pc;
  pc.forwarded_from = 5;
  pc.forwarded_to = 6;
  pc.ttl_expired = 2;
  pc.icmp_time_exceeded_sent = 1;
  plain::PlainCore core(plain::PlainCoreSettings{});
  const SocketAddress addr = SocketAddress::from(*config::parse_ip("192.0.2.3"), 5501);
  StatusInput in{cfg, counters, nullptr, std::chrono::seconds(1), {{&peer, &addr, &core, &pc}}};
  const auto doc = nlohmann::json::parse(render_status_json(in));
  EXPECT_EQ(doc["counters"]["forwarded_packets"], 11);
  EXPECT_EQ(doc["counters"]["ttl_expired"], 4);
  EXPECT_EQ(doc["counters"]["icmp_time_exceeded_sent"], 3);
  EXPECT_EQ(doc["counters"]["icmp_suppressed"], 1);
  EXPECT_EQ(doc["peers"][0]["forwarded_from"], 5);
  EXPECT_EQ(doc["peers"][0]["forwarded_to"], 6);
  EXPECT_EQ(doc["peers"][0]["ttl_expired"], 2);
  EXPECT_EQ(doc["peers"][0]["icmp_time_exceeded_sent"], 1);
  const std::string table = render_status_table(doc.dump());
  for (const char* key : {"forwarded_packets", "forwarded_from", "forwarded_to", "icmp_suppressed"}) {
    EXPECT_NE(table.find(key), std::string::npos) << key;
  }
}

}  // namespace
}  // namespace ncgw::gateway
