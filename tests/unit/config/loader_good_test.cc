// Valid configurations: values land in the right fields and defaults are filled in.
#include <gtest/gtest.h>

#include "config/loader.h"

namespace ncgw::config {
namespace {

// Loads `yaml`, failing the test with the error message if it is rejected.
GatewayConfig load_ok(const char* yaml) {
  const LoadResult result = load_config_string(yaml, "good.yaml");
  if (const auto* error = std::get_if<ConfigError>(&result)) {
    ADD_FAILURE() << format_error(*error);
    return {};
  }
  return std::get<GatewayConfig>(result);
}

TEST(config_good, MinimalFileGetsEveryDefault) {
  const GatewayConfig c = load_ok("gateway: {name: gw1}\n");
  EXPECT_EQ(c.name, "gw1");
  EXPECT_EQ(c.control_socket, "/run/ncgw/gw1.sock");
  EXPECT_EQ(c.tun, TunConfig{});
  EXPECT_FALSE(c.tun.mtu.has_value());
  EXPECT_EQ(c.listen, ListenConfig{});
  EXPECT_TRUE(c.peers.empty());
  EXPECT_TRUE(c.routes.empty());
  EXPECT_EQ(c.logging, LoggingConfig{});
}

TEST(config_good, EndpointPortDefaultsToTheTransportsPort) {
  const GatewayConfig c = load_ok(R"(
gateway: {name: gw1}
peers:
  - {name: a, endpoint: 10.0.0.2, transport: plain, security: none}
  - {name: b, endpoint: 10.0.0.2, transport: tcpnc, security: none}
  - {name: c, endpoint: 10.0.0.2, transport: udt, security: none}
  - {name: d, endpoint: "10.0.0.2:7000", transport: udt, security: none}
)");
  ASSERT_EQ(c.peers.size(), 4u);
  EXPECT_EQ(c.peers[0].endpoint_port, 5500);
  EXPECT_EQ(c.peers[1].endpoint_port, 5501);
  EXPECT_EQ(c.peers[2].endpoint_port, 5502);
  EXPECT_EQ(c.peers[3].endpoint_port, 7000);
  EXPECT_EQ(c.peers[3].endpoint_host, "10.0.0.2");
}

TEST(config_good, Ipv6EndpointsAreCanonicalWithDualStackListen) {
  const GatewayConfig c = load_ok(R"(
gateway: {name: gw1}
listen: {address: "::"}
peers:
  - {name: a, endpoint: "[FD00:0::2]:6000", transport: plain, security: none}
  - {name: b, endpoint: "fd00::3", transport: plain, security: none}
  - {name: c, endpoint: 192.0.2.1, transport: plain, security: none}
)");
  ASSERT_EQ(c.peers.size(), 3u);
  EXPECT_EQ(c.peers[0].endpoint_host, "fd00::2");
  EXPECT_EQ(c.peers[0].endpoint_port, 6000);
  EXPECT_EQ(c.peers[1].endpoint_host, "fd00::3");
  EXPECT_EQ(c.peers[1].endpoint_port, 5500);
  EXPECT_EQ(c.peers[2].endpoint_host, "192.0.2.1");
}

// Without retransmission_target, the loss-based controllers get paper 002's small target (a
// round is a congestion event for them) and bbr its latency bound; a value in the file wins.
TEST(config_good, RetransmissionTargetDefaultsByCongestionControl) {
  const GatewayConfig c = load_ok(R"(
gateway: {name: gw1}
peers:
  - {name: a, endpoint: 10.0.0.2, transport: tcpnc, security: none, tcpnc: {congestion_control: newreno}}
  - {name: b, endpoint: 10.0.0.3, transport: tcpnc, security: none, tcpnc: {congestion_control: cubic}}
  - {name: c, endpoint: 10.0.0.4, transport: tcpnc, security: none, tcpnc: {congestion_control: bbr}}
  - {name: d, endpoint: 10.0.0.5, transport: tcpnc, security: none}
  - {name: e, endpoint: 10.0.0.6, transport: tcpnc, security: none,
     tcpnc: {congestion_control: newreno, retransmission_target: 0.3}}
)");
  ASSERT_EQ(c.peers.size(), 5u);
  EXPECT_DOUBLE_EQ(c.peers[0].tcpnc.retransmission_target, 0.02);
  EXPECT_DOUBLE_EQ(c.peers[1].tcpnc.retransmission_target, 0.02);
  EXPECT_DOUBLE_EQ(c.peers[2].tcpnc.retransmission_target, 0.25);
  EXPECT_DOUBLE_EQ(c.peers[3].tcpnc.retransmission_target, 0.25);
  EXPECT_DOUBLE_EQ(c.peers[4].tcpnc.retransmission_target, 0.3);
  for (const auto& p : c.peers) EXPECT_DOUBLE_EQ(p.tcpnc.idle_retransmission_target, 0.01);
  for (const auto& p : c.peers) EXPECT_DOUBLE_EQ(p.tcpnc.cw_rtt_fraction, 0.5);
  for (const auto& p : c.peers) EXPECT_TRUE(p.tcpnc.sparse_flow_priority);
}

TEST(config_good, TcpncSettingsAreRead) {
  const GatewayConfig c = load_ok(R"(
gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc:
      congestion_control: cubic
      cwnd_max_packets: 300
      link_buffer_packets: 600
      sending_buffer_packets: 900
      n_min: 2
      n_max: 64
      k_max: 20
      r_max: 1.5
      retransmission_target: 0.001
      idle_retransmission_target: 1
      cw_rtt_fraction: 0.4
      sparse_flow_priority: false
      fixed_n: 16
      fixed_k: 0
      rto_min_ms: 250
      keepalive_ms: 500
      dead_peer_ms: 3000
      seed: 18446744073709551615
)");
  ASSERT_EQ(c.peers.size(), 1u);
  const TcpncSettings& s = c.peers[0].tcpnc;
  EXPECT_EQ(s.congestion_control, CongestionControl::cubic);
  EXPECT_EQ(s.cwnd_max_packets, 300u);
  EXPECT_EQ(s.link_buffer_packets, 600u);
  EXPECT_EQ(s.sending_buffer_packets, 900u);
  EXPECT_EQ(s.n_min, 2u);
  EXPECT_EQ(s.n_max, 64u);
  EXPECT_EQ(s.k_max, 20u);
  EXPECT_DOUBLE_EQ(s.r_max, 1.5);
  EXPECT_DOUBLE_EQ(s.retransmission_target, 0.001);
  EXPECT_DOUBLE_EQ(s.idle_retransmission_target, 1.0);
  EXPECT_DOUBLE_EQ(s.cw_rtt_fraction, 0.4);
  EXPECT_FALSE(s.sparse_flow_priority);
  EXPECT_EQ(s.fixed_n, std::optional<std::uint32_t>(16));
  EXPECT_EQ(s.fixed_k, std::optional<std::uint32_t>(0));
  EXPECT_EQ(s.rto_min_ms, 250u);
  EXPECT_EQ(s.keepalive_ms, 500u);
  EXPECT_EQ(s.dead_peer_ms, 3000u);
  EXPECT_EQ(s.seed, 18446744073709551615ull);
  EXPECT_EQ(c.peers[0].udt, UdtSettings{});  // the other blocks keep their defaults
}

TEST(config_good, UdtAndPlainSettingsAreRead) {
  const GatewayConfig c = load_ok(R"(
gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: udt
    security: none
    udt: {mss: 1400, flight_flag_size: 1000, send_buffer_packets: 64, recv_buffer_packets: 128,
          rendezvous: true, channels: 0, congestion_control: paudt, initial_window: 32, seed: 7,
          entrance_queue_ms: 25}
  - name: gw3
    endpoint: 10.0.0.3
    transport: plain
    security: none
    plain: {session_id: 4294967295}
)");
  ASSERT_EQ(c.peers.size(), 2u);
  const UdtSettings& u = c.peers[0].udt;
  EXPECT_EQ(u.mss, 1400u);
  EXPECT_EQ(u.flight_flag_size, 1000u);
  EXPECT_EQ(u.send_buffer_packets, 64u);
  EXPECT_EQ(u.recv_buffer_packets, 128u);
  EXPECT_TRUE(u.rendezvous);
  EXPECT_EQ(u.channels, 0u);
  EXPECT_EQ(u.congestion_control, UdtCongestionControl::paudt);
  EXPECT_EQ(u.initial_window, 32u);
  EXPECT_EQ(u.entrance_queue_ms, 25);
  EXPECT_EQ(u.seed, 7u);
  EXPECT_EQ(c.peers[1].plain.session_id, 4294967295u);
}

TEST(config_good, UdtCongestionControlNamesEachController) {
  const GatewayConfig c = load_ok(R"(
gateway: {name: gw1}
peers:
  - {name: gw2, endpoint: 10.0.0.2, transport: udt, security: none}
  - {name: gw3, endpoint: 10.0.0.3, transport: udt, security: none, udt: {congestion_control: bbr}}
  - {name: gw4, endpoint: 10.0.0.4, transport: udt, security: none, udt: {congestion_control: udt4}}
)");
  ASSERT_EQ(c.peers.size(), 3u);
  EXPECT_EQ(c.peers[0].udt.congestion_control, UdtCongestionControl::udt4);  // the default
  EXPECT_EQ(c.peers[1].udt.congestion_control, UdtCongestionControl::bbr);
  EXPECT_EQ(c.peers[2].udt.congestion_control, UdtCongestionControl::udt4);
}

TEST(config_good, UdtMssIsAutoByDefaultAndNeverAboveTheUnderlay) {
  const GatewayConfig c = load_ok(R"(
gateway: {name: gw1}
tun: {underlay_mtu: 1400}
peers:
  - {name: gw2, endpoint: 10.0.0.2, transport: udt, security: none}
  - {name: gw3, endpoint: 10.0.0.3, transport: udt, security: none, udt: {mss: 1200}}
)");
  ASSERT_EQ(c.peers.size(), 2u);
  EXPECT_TRUE(c.peers[0].udt.mss_auto);
  EXPECT_EQ(c.peers[0].udt.mss, 1400u);   // bound for auto: the path MTU is read at start
  EXPECT_FALSE(c.peers[1].udt.mss_auto);
  EXPECT_EQ(c.peers[1].udt.mss, 1200u);
}

TEST(config_good, TunListenRoutesAndLogging) {
  const GatewayConfig c = load_ok(R"(
gateway: {name: gw-1_a, control_socket: /tmp/gw.sock}
tun: {name: tun.x, mtu: 1300, underlay_mtu: 1400, addresses: [10.99.0.1/30, "fd00::1/64"], on_exit: keep,
     offload: off}
listen: {address: 10.0.0.1, plain_port: 1, tcpnc_port: 65535, udt_port: 4000}
peers:
  - {name: gw2, endpoint: 10.0.0.2, transport: plain, security: none}
routes:
  - {prefix: 10.2.0.0/24, via: gw2}
  - {prefix: 10.2.0.0/16, via: gw2}
  - {prefix: "fd00:2::/64", via: gw2}
  - {prefix: 0.0.0.0/0, via: gw2}
logging: {level: trace, file: /var/log/ncgw.log}
)");
  EXPECT_EQ(c.name, "gw-1_a");
  EXPECT_EQ(c.control_socket, "/tmp/gw.sock");
  EXPECT_EQ(c.tun.name, "tun.x");
  EXPECT_EQ(c.tun.mtu, std::optional<std::uint32_t>(1300));
  EXPECT_EQ(c.tun.underlay_mtu, 1400u);
  ASSERT_EQ(c.tun.addresses.size(), 2u);
  EXPECT_EQ(to_string(c.tun.addresses[0]), "10.99.0.1/30");  // interface address keeps host bits
  EXPECT_EQ(to_string(c.tun.addresses[1]), "fd00::1/64");
  EXPECT_EQ(c.tun.on_exit, TunOnExit::keep);
  EXPECT_EQ(c.tun.offload, TunOffload::off);
  EXPECT_EQ(c.listen.address, "10.0.0.1");
  EXPECT_EQ(c.listen.plain_port, 1);
  EXPECT_EQ(c.listen.tcpnc_port, 65535);
  EXPECT_EQ(c.listen.udt_port, 4000);
  ASSERT_EQ(c.routes.size(), 4u);
  EXPECT_EQ(to_string(c.routes[1].prefix), "10.2.0.0/16");
  EXPECT_EQ(to_string(c.routes[3].prefix), "0.0.0.0/0");
  EXPECT_EQ(c.routes[2].via, "gw2");
  EXPECT_EQ(c.logging.level, "trace");
  EXPECT_EQ(c.logging.file, "/var/log/ncgw.log");
}

TEST(config_good, MtuAutoAndQuotedNumbers) {
  const GatewayConfig a = load_ok("gateway: {name: gw1}\ntun: {mtu: auto}\n");
  EXPECT_FALSE(a.tun.mtu.has_value());
  const GatewayConfig b = load_ok("gateway: {name: gw1}\ntun: {mtu: \"1400\"}\n");
  EXPECT_EQ(b.tun.mtu, std::optional<std::uint32_t>(1400));
}

TEST(config_good, NumericNamesAreStrings) {
  const GatewayConfig c = load_ok("gateway: {name: 42}\n");
  EXPECT_EQ(c.name, "42");
  EXPECT_EQ(c.control_socket, "/run/ncgw/42.sock");
}

TEST(config_good, EnumNamesAndDefaultPorts) {
  EXPECT_EQ(to_string(TransportKind::tcpnc), "tcpnc");
  EXPECT_EQ(to_string(CongestionControl::cubic), "cubic");
  EXPECT_EQ(to_string(TunOnExit::keep), "keep");
  EXPECT_EQ(default_port(TransportKind::plain), 5500);
  EXPECT_EQ(default_port(TransportKind::udt), 5502);
}

}  // namespace
}  // namespace ncgw::config
