// A peer's `fudp` object in the status document (every flow, highest rate first, allocation null
// when unshaped) and its lines in the table (the top flows with class, rate and allocation).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gateway/fudp/cfs.h"
#include "gateway/status_json.h"
#include "transports/plain/plain_core.h"

namespace ncgw::gateway {
namespace {

// A 1000-byte IPv4 packet of `protocol` from 10.0.0.<src>:<sport> to 10.0.1.1:5201.
std::vector<std::uint8_t> packet(std::uint8_t protocol, std::uint8_t src, std::uint16_t sport) {
  std::vector<std::uint8_t> p(1000, 0);
  p[0] = 0x45;
  p[9] = protocol;
  p[12] = 10, p[15] = src;
  p[16] = 10, p[18] = 1, p[19] = 1;
  p[20] = static_cast<std::uint8_t>(sport >> 8), p[21] = static_cast<std::uint8_t>(sport);
  p[22] = 0x14, p[23] = 0x51;
  return p;
}

TEST(FudpStatus, JsonListsEveryFlowAndTableTheTop) {
  fudp::Settings s;
  s.period_ms = 1000;
  fudp::Cfs cfs(s, transport::time_from_ns(0));
  const auto tcp = packet(6, 1, 40000), udp = packet(17, 2, 40001);
  for (int ms = 0; ms < 1000; ++ms) {
    const auto t = transport::time_from_ns(ms * 1'000'000LL);
    cfs.on_packet(tcp, t);
    for (int i = 0; i < 4; ++i) cfs.on_packet(udp, t);
  }
  cfs.on_period(transport::time_from_ns(1'000'000'000LL), 2e6);

  config::GatewayConfig cfg;
  cfg.name = "gwA";
  config::Peer peer;
  peer.name = "gwB";
  GatewayCounters counters;
  PeerCounters pc;
  plain::PlainCore core(plain::PlainCoreSettings{});
  const SocketAddress addr = SocketAddress::from(*config::parse_ip("192.0.2.1"), 5500);
  StatusInput in{cfg, counters, nullptr, std::chrono::seconds(2), {{&peer, &addr, &core, &pc, &cfs}}, {}};
  const auto doc = nlohmann::json::parse(render_status_json(in));
  const auto& f = doc["peers"][0]["fudp"];
  ASSERT_TRUE(f.is_object());
  EXPECT_EQ(f["flows_tracked"], 2);
  EXPECT_EQ(f["last_period"]["tcp_flows"], 1);
  EXPECT_EQ(f["last_period"]["available_from_tunnel"], true);
  ASSERT_EQ(f["flows"].size(), 2u);
  EXPECT_EQ(f["flows"][0]["class"], "udp");
  EXPECT_DOUBLE_EQ(f["flows"][0]["rate_bps"].get<double>(), 32e6);
  EXPECT_DOUBLE_EQ(f["flows"][0]["allocation_bps"].get<double>(), 8e6);
  EXPECT_EQ(f["flows"][1]["class"], "tcp");
  EXPECT_TRUE(f["flows"][1]["allocation_bps"].is_null());
  EXPECT_EQ(f["flows"][1]["flow"], "tcp 10.0.0.1:40000 > 10.0.1.1:5201");

  const std::string table = render_status_table(doc.dump());
  EXPECT_NE(table.find("fudp: 2 flows tracked (of 4096)"), std::string::npos) << table;
  EXPECT_NE(table.find("udp 10.0.0.2:40001 > 10.0.1.1:5201"), std::string::npos) << table;
  EXPECT_NE(table.find("8.000 Mbit/s"), std::string::npos) << table;
}

TEST(FudpStatus, NullWhenOff) {
  config::GatewayConfig cfg;
  config::Peer peer;
  GatewayCounters counters;
  PeerCounters pc;
  plain::PlainCore core(plain::PlainCoreSettings{});
  const SocketAddress addr = SocketAddress::from(*config::parse_ip("192.0.2.1"), 5500);
  StatusInput in{cfg, counters, nullptr, std::chrono::seconds(1), {{&peer, &addr, &core, &pc}}, {}};
  const auto doc = nlohmann::json::parse(render_status_json(in));
  EXPECT_TRUE(doc["peers"][0]["fudp"].is_null());
  EXPECT_EQ(doc["peers"][0]["fudp_dropped"], 0);
}

}  // namespace
}  // namespace ncgw::gateway
