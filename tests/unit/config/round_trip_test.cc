// to_yaml writes every default out and reads back to an equal configuration.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "config/loader.h"

namespace ncgw::config {
namespace {

namespace fs = std::filesystem;

// Loads, or fails the test with the message.
GatewayConfig must_load(const LoadResult& result) {
  if (const auto* error = std::get_if<ConfigError>(&result)) {
    ADD_FAILURE() << format_error(*error);
    return {};
  }
  return std::get<GatewayConfig>(result);
}

// to_yaml -> load gives back `config`, and printing that again gives the same text.
void expect_round_trip(const GatewayConfig& config) {
  const std::string text = to_yaml(config);
  const GatewayConfig again = must_load(load_config_string(text, "normalised.yaml"));
  EXPECT_EQ(again, config) << text;
  EXPECT_EQ(to_yaml(again), text);
}

TEST(config_round_trip, EveryExample) {
  for (const auto& entry : fs::directory_iterator(NCGW_CONFIG_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().string());
    expect_round_trip(must_load(load_config_file(entry.path().string())));
  }
}

TEST(config_round_trip, EveryFieldAwayFromItsDefault) {
  // Buffers consistent with paper 002 section 2.2 (no warning): link 20 >= ceil(1.1 x 17) = 19,
  // sending 40 >= 17 + 20.
  std::vector<ConfigWarning> warnings;
  GatewayConfig c = must_load(load_config_string(R"(
gateway: {name: gw1, control_socket: /tmp/a b.sock}
tun: {name: t0, mtu: 1300, underlay_mtu: 1400, addresses: ["fd00::1/64", 10.9.0.1/24], on_exit: keep, offload: off}
listen: {address: "::", plain_port: 6000, tcpnc_port: 6001, udt_port: 6002}
peers:
  - name: p1
    endpoint: "[fd00::2]:7000"
    transport: tcpnc
    security: none
    tcpnc: {congestion_control: cubic, cwnd_max_packets: 17, link_buffer_packets: 20,
            sending_buffer_packets: 40, n_min: 3, n_max: 9, k_max: 5, r_max: 1.1,
            retransmission_target: 0.1, idle_retransmission_target: 0.05, cw_rtt_fraction: 0.6,
            sparse_flow_priority: false,
            fixed_n: 4, fixed_k: 2, rto_min_ms: 7, keepalive_ms: 8, dead_peer_ms: 9, seed: 123456789012345}
  - name: p2
    endpoint: 10.0.0.3
    transport: udt
    security: none
    udt: {mss: 1200, flight_flag_size: 33, send_buffer_packets: 34, recv_buffer_packets: 35,
          rendezvous: true, channels: 0, congestion_control: paudt, initial_window: 20, seed: 0,
          entrance_queue_ms: "off"}
  - {name: p3, endpoint: 10.0.0.4:1, transport: plain, security: none, plain: {session_id: 99}}
routes:
  - {prefix: "fd00:5::/48", via: p1}
  - {prefix: 10.5.0.0/16, via: p2}
logging: {level: "off", file: "/var/log/x: y.log"}
)", "t.yaml", &warnings));
  EXPECT_TRUE(warnings.empty()) << format_warning(warnings.front());
  ASSERT_EQ(c.peers.size(), 3u);
  expect_round_trip(c);
}

TEST(config_round_trip, EmptyListsAndAutoMtu) {
  const GatewayConfig c = must_load(load_config_string("gateway: {name: gw1}\n", "t.yaml"));
  expect_round_trip(c);
  EXPECT_NE(to_yaml(c).find("mtu: auto"), std::string::npos) << to_yaml(c);
}

TEST(config_round_trip, NormalisedTextWritesDefaults) {
  const GatewayConfig c = must_load(load_config_string(
      "gateway: {name: gw1}\npeers:\n  - {name: gw2, endpoint: 10.0.0.2, transport: tcpnc, security: none}\n", "t.yaml"));
  const std::string text = to_yaml(c);
  for (const char* line : {"control_socket: /run/ncgw/gw1.sock", "endpoint: 10.0.0.2:5501",
                           "cwnd_max_packets: 0", "congestion_control: bbr", "retransmission_target: 0.25", "r_max: 2.0",
                           "udt_port: 5502", "level: info"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
  }
  EXPECT_EQ(text.find("udt:"), std::string::npos) << "only the chosen transport's block\n" << text;
}

TEST(config_round_trip, HandBuiltConfigGetsItsDefaultsWritten) {
  GatewayConfig c;
  c.name = "gw1";
  Peer peer;
  peer.name = "gw2";
  peer.endpoint_host = "10.0.0.2";
  peer.transport = TransportKind::udt;
  peer.security = Security::none;
  c.peers.push_back(peer);
  const GatewayConfig loaded = must_load(load_config_string(to_yaml(c), "t.yaml"));
  ASSERT_EQ(loaded.peers.size(), 1u);
  EXPECT_EQ(loaded.peers[0].endpoint_port, 5502);
  EXPECT_EQ(loaded.control_socket, "/run/ncgw/gw1.sock");
}

}  // namespace
}  // namespace ncgw::config
