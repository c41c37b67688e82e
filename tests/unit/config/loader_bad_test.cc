// Bad configurations given inline: each must fail with exactly this message (file:line:column,
// key path, what was expected). More bad inputs live as files in bad/ (bad_files_test.cc).
#include <gtest/gtest.h>

#include <ostream>

#include "config/loader.h"

namespace ncgw::config {
namespace {

// One rejected document and the full error it must produce when labelled "test.yaml".
struct BadCase {
  const char* name;
  const char* yaml;
  const char* message;
};

// gtest prints a failing parameter by its name.
void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

const BadCase kBadCases[] = {
    {"not_utf8", "gateway: {name: gw1}\nlogging: {file: /var/log/x\xff\xfe}\n",
     "test.yaml:2:27: not UTF-8 text (byte 0xff)"},
    {"overlong_utf8", "gateway: {name: gw1, control_socket: /run/\xc0\xaf}\n",
     "test.yaml:1:43: not UTF-8 text (byte 0xc0)"},
    {"leading_comma_yaml_cpp_loops_on", ",",
     "test.yaml:1:1: the document is empty; expected a mapping with at least 'gateway'"},
    {"unknown_top_key_suggest",
     R"(gateway: {name: gw1}
peer:
  - name: gw2
)",
     "test.yaml:2:1: peer: unknown key; did you mean 'peers'?"},
    {"unknown_key_no_suggestion",
     R"(gateway: {name: gw1}
colour: blue
)",
     "test.yaml:2:1: colour: unknown key; expected one of gateway, tun, listen, fudp, peers, routes, logging"},
    {"duplicate_peer_key",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: plain
    security: none
    endpoint: 10.0.0.3
)",
     "test.yaml:7:5: peers[0].endpoint: duplicate key (first at line 4)"},
    {"missing_gateway",
     R"(tun: {name: ncgw0}
)",
     "test.yaml:1:1: missing required key 'gateway'"},
    {"missing_gateway_name",
     R"(gateway: {control_socket: /run/x.sock}
)",
     "test.yaml:1:10: gateway: missing required key 'name'"},
    {"missing_peer_endpoint",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    transport: plain
    security: none
)",
     "test.yaml:3:5: peers[0]: missing required key 'endpoint'"},
    {"missing_peer_transport",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
)",
     "test.yaml:3:5: peers[0]: missing required key 'transport'"},
    {"bad_gateway_name",
     R"(gateway: {name: "gw 1"}
)",
     "test.yaml:1:17: gateway.name: expected 1 to 32 characters from A-Z a-z 0-9 _ -, got 'gw 1'"},
    {"long_peer_name",
     R"(gateway: {name: gw1}
peers:
  - {name: abcdefghijabcdefghijabcdefghijabc, endpoint: 10.0.0.2, transport: plain, security: none}
)",
     "test.yaml:3:12: peers[0].name: expected 1 to 32 characters from A-Z a-z 0-9 _ -, got 'abcdefghijabcdefghijabcdefghijabc'"},
    {"duplicate_peer_name",
     R"(gateway: {name: gw1}
peers:
  - {name: gw2, endpoint: 10.0.0.2, transport: plain, security: none}
  - {name: gw2, endpoint: 10.0.0.3, transport: plain, security: none}
)",
     "test.yaml:4:12: peers[1].name: duplicate peer name 'gw2' (first at line 3)"},
    {"peer_named_like_gateway",
     R"(gateway: {name: gw1}
peers:
  - {name: gw1, endpoint: 10.0.0.2, transport: plain, security: none}
)",
     "test.yaml:3:12: peers[0].name: a peer cannot have the gateway's own name 'gw1'"},
    {"route_via_unknown",
     R"(gateway: {name: gw1}
peers:
  - {name: gw2, endpoint: 10.0.0.2, transport: plain, security: none}
  - {name: gw3, endpoint: 10.0.0.3, transport: plain, security: none}
routes:
  - {prefix: 10.2.0.0/24, via: gw4}
)",
     "test.yaml:6:32: routes[0].via: expected the name of a peer (gw2, gw3), got 'gw4'"},
    {"route_duplicate",
     R"(gateway: {name: gw1}
peers:
  - {name: gw2, endpoint: 10.0.0.2, transport: plain, security: none}
routes:
  - {prefix: 10.2.0.0/24, via: gw2}
  - {prefix: 10.2.0.0/24, via: gw2}
)",
     "test.yaml:6:14: routes[1].prefix: duplicate route for 10.2.0.0/24 (first at line 5)"},
    {"route_bad_prefix",
     R"(gateway: {name: gw1}
peers:
  - {name: gw2, endpoint: 10.0.0.2, transport: plain, security: none}
routes:
  - {prefix: 10.2.0.0/33, via: gw2}
)",
     "test.yaml:5:14: routes[0].prefix: expected a prefix (10.2.0.0/24, fd00:2::/64), got '10.2.0.0/33'"},
    {"endpoint_hostname",
     R"(gateway: {name: gw1}
peers:
  - {name: gw2, endpoint: gw2.example.org, transport: plain, security: none}
)",
     "test.yaml:3:27: peers[0].endpoint: expected an IP address with an optional port (10.0.0.2, 10.0.0.2:5501, [fd00::2]:5501), got 'gw2.example.org'"},
    {"endpoint_port_range",
     R"(gateway: {name: gw1}
peers:
  - {name: gw2, endpoint: "10.0.0.2:70000", transport: plain, security: none}
)",
     "test.yaml:3:27: peers[0].endpoint: expected a port in 1..65535 after the address, got '70000'"},
    {"endpoint_unspecified",
     R"(gateway: {name: gw1}
peers:
  - {name: gw2, endpoint: 0.0.0.0, transport: plain, security: none}
)",
     "test.yaml:3:27: peers[0].endpoint: expected a unicast address, got '0.0.0.0'"},
    {"endpoint_multicast",
     R"(gateway: {name: gw1}
listen: {address: "::"}
peers:
  - {name: gw2, endpoint: "[ff02::1]:5500", transport: plain, security: none}
)",
     "test.yaml:4:27: peers[0].endpoint: expected a unicast address, got '[ff02::1]:5500'"},
    {"endpoint_duplicate",
     R"(gateway: {name: gw1}
peers:
  - {name: gw2, endpoint: 10.0.0.2, transport: plain, security: none}
  - {name: gw3, endpoint: "10.0.0.2:5500", transport: plain, security: none}
)",
     "test.yaml:4:27: peers[1].endpoint: endpoint 10.0.0.2:5500 with transport plain is already peer 'gw2'"},
    {"mtu_too_small",
     R"(gateway: {name: gw1}
tun: {mtu: 500}
)",
     "test.yaml:2:12: tun.mtu: expected 'auto' or an integer in 576..9000, got 500"},
    {"mtu_over_underlay",
     R"(gateway: {name: gw1}
tun: {mtu: 1480, underlay_mtu: 1500}
)",
     "test.yaml:2:12: tun.mtu: expected at most underlay_mtu - 28 = 1472 (the tunnel adds at least an IPv4 and a UDP header), got 1480"},
    {"mtu_word",
     R"(gateway: {name: gw1}
tun: {mtu: automatic}
)",
     "test.yaml:2:12: tun.mtu: expected 'auto' or an integer in 576..9000, got 'automatic'"},
    {"address_without_length",
     R"(gateway: {name: gw1}
tun:
  addresses: [10.99.0.1]
)",
     "test.yaml:3:15: tun.addresses[0]: expected an address with prefix length (10.99.0.1/30, fd00::1/64), got '10.99.0.1'"},
    {"address_invalid",
     R"(gateway: {name: gw1}
tun:
  addresses:
    - 10.99.0.1/30
    - 10.99.0.300/30
)",
     "test.yaml:5:7: tun.addresses[1]: expected an address with prefix length (10.99.0.1/30, fd00::1/64), got '10.99.0.300/30'"},
    {"negative_number",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc: {rto_min_ms: -5}
)",
     "test.yaml:7:25: peers[0].tcpnc.rto_min_ms: expected an integer in 1..60000, got '-5'"},
    {"fractional_number",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc: {cwnd_max_packets: 1.5}
)",
     "test.yaml:7:31: peers[0].tcpnc.cwnd_max_packets: expected an integer in 0..100000, got '1.5'"},
    {"overflow_number",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc: {seed: 18446744073709551616}
)",
     "test.yaml:7:19: peers[0].tcpnc.seed: expected an integer in 0..18446744073709551615, got 18446744073709551616 (too large)"},
    {"n_min_above_n_max",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc:
      n_min: 40
      n_max: 20
)",
     "test.yaml:9:14: peers[0].tcpnc.n_max: n_min (40) must not exceed n_max (20)"},
    {"fixed_n_without_k",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc: {fixed_n: 8}
)",
     "test.yaml:7:22: peers[0].tcpnc.fixed_n: fixed_k must be set too (set both to disable adaptation, or neither)"},
    {"probability_out_of_range",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc: {retransmission_target: 1}
)",
     "test.yaml:7:36: peers[0].tcpnc.retransmission_target: expected a number in (0, 1), got 1"},
    {"idle_target_zero",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc: {idle_retransmission_target: 0}
)",
     "test.yaml:7:41: peers[0].tcpnc.idle_retransmission_target: expected a number in (0, 1], got 0"},
    {"cw_rtt_fraction_too_large",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc: {cw_rtt_fraction: 3}
)",
     "test.yaml:7:30: peers[0].tcpnc.cw_rtt_fraction: expected a number in (0, 2], got 3"},
    {"r_max_below_one",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc: {r_max: 0.5}
)",
     "test.yaml:7:20: peers[0].tcpnc.r_max: expected a number in [1, 16], got 0.5"},
    {"cwnd_max_one",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc: {cwnd_max_packets: 1}
)",
     "test.yaml:7:31: peers[0].tcpnc.cwnd_max_packets: expected 0 (automatic) or an integer in 2..100000, got 1"},
    {"congestion_control_unknown",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc: {congestion_control: vegas}
)",
     "test.yaml:7:33: peers[0].tcpnc.congestion_control: expected one of newreno, cubic, bbr, got 'vegas'"},
    {"settings_block_mismatch",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    udt: {mss: 1400}
)",
     "test.yaml:7:10: peers[0].udt: settings for transport udt, but this peer's transport is tcpnc"},
    {"udt_mss_bounds",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: udt
    security: none
    udt: {mss: 60}
)",
     "test.yaml:7:16: peers[0].udt.mss: expected 'auto' or an integer in 76..9000, got 60"},
    {"udt_channels",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: udt
    security: none
    udt: {channels: 65}
)",
     "test.yaml:7:21: peers[0].udt.channels: expected an integer in 0..64, got 65"},
    {"udt_congestion_control",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: udt
    security: none
    udt: {congestion_control: cubic}
)",
     "test.yaml:7:31: peers[0].udt.congestion_control: expected one of udt4, paudt, bbr, got 'cubic'"},
    {"udt_initial_window_over_flight_flag",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: udt
    security: none
    udt: {flight_flag_size: 40, initial_window: 64}
)",
     "test.yaml:7:49: peers[0].udt.initial_window: initial_window 64 exceeds flight_flag_size (40)"},
    {"udt_entrance_queue_word",
     "gateway: {name: gw1}\npeers: [{name: gw2, endpoint: 10.0.0.2, transport: udt, security: none, udt: {entrance_queue_ms: never}}]\n",
     "test.yaml:2:98: peers[0].udt.entrance_queue_ms: expected 'auto', 'off' or an integer in 1..60000, got 'never'"},
    {"udt_entrance_queue_zero",
     "gateway: {name: gw1}\npeers: [{name: gw2, endpoint: 10.0.0.2, transport: udt, security: none, udt: {entrance_queue_ms: 0}}]\n",
     "test.yaml:2:98: peers[0].udt.entrance_queue_ms: expected 'auto', 'off' or an integer in 1..60000, got 0"},
    {"udt_rendezvous_bool",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: udt
    security: none
    udt: {rendezvous: yes}
)",
     "test.yaml:7:23: peers[0].udt.rendezvous: expected true or false, got 'yes'"},
    {"logging_level",
     R"(gateway: {name: gw1}
logging: {level: verbose}
)",
     "test.yaml:2:18: logging.level: expected one of trace, debug, info, warn, error, critical, off, got 'verbose'"},
    {"on_exit",
     R"(gateway: {name: gw1}
tun: {on_exit: delete}
)",
     "test.yaml:2:16: tun.on_exit: expected one of remove, keep, got 'delete'"},
    {"tun_offload",
     R"(gateway: {name: gw1}
tun: {offload: on}
)",
     "test.yaml:2:16: tun.offload: expected one of auto, off, got 'on'"},
    {"listen_port_clash",
     R"(gateway: {name: gw1}
listen: {plain_port: 6000, tcpnc_port: 6000}
)",
     "test.yaml:2:40: listen.tcpnc_port: port 6000 is already listen.plain_port; each transport needs its own port"},
    {"listen_address",
     R"(gateway: {name: gw1}
listen: {address: localhost}
)",
     "test.yaml:2:19: listen.address: expected an IP address (0.0.0.0, ::, 10.0.0.1), got 'localhost'"},
    {"peers_not_a_list",
     R"(gateway: {name: gw1}
peers: {name: gw2}
)",
     "test.yaml:2:8: peers: expected a sequence, got a mapping"},
    {"top_level_list",
     R"(- gateway
)",
     "test.yaml:1:1: expected a mapping, got a sequence"},
    {"null_value",
     R"(gateway:
  name:
)",
     "test.yaml:2:3: gateway.name: expected a string, got null"},
    {"control_socket_relative",
     R"(gateway: {name: gw1, control_socket: run/gw1.sock}
)",
     "test.yaml:1:38: gateway.control_socket: expected an absolute path of at most 107 bytes, got 'run/gw1.sock'"},
    {"tun_name_too_long",
     R"(gateway: {name: gw1}
tun: {name: ncgw0123456789abc}
)",
     "test.yaml:2:13: tun.name: expected an interface name of 1 to 15 characters from A-Z a-z 0-9 _ . -, got 'ncgw0123456789abc'"},
    {"dead_peer_below_keepalive",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc: {keepalive_ms: 5000, dead_peer_ms: 5000}
)",
     "test.yaml:7:47: peers[0].tcpnc.dead_peer_ms: dead_peer_ms (5000) must exceed keepalive_ms (5000)"},
    {"route_missing_via",
     R"(gateway: {name: gw1}
peers:
  - {name: gw2, endpoint: 10.0.0.2, transport: plain, security: none}
routes:
  - prefix: 10.2.0.0/24
)",
     "test.yaml:5:5: routes[0]: missing required key 'via'"},
    {"route_without_peers",
     R"(gateway: {name: gw1}
routes:
  - {prefix: 10.2.0.0/24, via: gw2}
)",
     "test.yaml:3:32: routes[0].via: no peer named 'gw2': no peers are configured"},
    {"route_unknown_key",
     R"(gateway: {name: gw1}
peers:
  - {name: gw2, endpoint: 10.0.0.2, transport: plain, security: none}
routes:
  - {prefix: 10.2.0.0/24, vai: gw2}
)",
     "test.yaml:5:27: routes[0].vai: unknown key; expected one of prefix, via"},
    {"key_not_scalar",
     R"(gateway: {name: gw1}
[a, b]: 1
)",
     "test.yaml:2:1: expected a key name, got a sequence"},
    {"sending_buffer_below_cwnd",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc: {cwnd_max_packets: 300, sending_buffer_packets: 100}
)",
     "test.yaml:7:60: peers[0].tcpnc.sending_buffer_packets: sending_buffer_packets (100) must be 0 or at least cwnd_max_packets (300)"},
    {"n_max_above_coding_window",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc: {n_max: 256}
)",
     "test.yaml:7:20: peers[0].tcpnc.n_max: expected an integer in 1..255, got 256"},
    {"fixed_n_outside_bounds",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc: {n_max: 32, fixed_n: 40, fixed_k: 4}
)",
     "test.yaml:7:33: peers[0].tcpnc.fixed_n: expected an integer in n_min..n_max (4..32), got 40"},
    {"peer_element_null",
     R"(gateway: {name: gw1}
peers:
  -
)",
     "test.yaml:3:3: peers[0]: expected a mapping, got null"},
    {"session_id_text",
     R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: plain
    security: none
    plain: {session_id: 0x10}
)",
     "test.yaml:7:25: peers[0].plain.session_id: expected an integer in 0..4294967295, got '0x10'"},
    {"endpoint_v4_in_brackets",
     R"(gateway: {name: gw1}
peers:
  - {name: gw2, endpoint: "[10.0.0.2]:5500", transport: plain, security: none}
)",
     "test.yaml:3:27: peers[0].endpoint: expected an IP address with an optional port (10.0.0.2, 10.0.0.2:5501, [fd00::2]:5501), got '[10.0.0.2]:5500'"},
    {"duplicate_tun_address",
     R"(gateway: {name: gw1}
tun:
  addresses: [10.99.0.1/30, 10.99.0.1/24]
)",
     "test.yaml:3:29: tun.addresses[1]: duplicate address 10.99.0.1"},
    {"listen_default_clash",
     R"(gateway: {name: gw1}
listen: {udt_port: 5500}
)",
     "test.yaml:2:9: listen: plain_port, tcpnc_port and udt_port must differ (defaults 5500, 5501, 5502)"},
};

class config_bad_inline : public testing::TestWithParam<BadCase> {};

TEST_P(config_bad_inline, FailsWithExactMessage) {
  const BadCase& c = GetParam();
  const LoadResult result = load_config_string(c.yaml, "test.yaml");
  const auto* error = std::get_if<ConfigError>(&result);
  ASSERT_NE(error, nullptr) << "accepted:\n" << c.yaml;
  EXPECT_EQ(format_error(*error), c.message);
}

INSTANTIATE_TEST_SUITE_P(all, config_bad_inline, testing::ValuesIn(kBadCases),
                         [](const testing::TestParamInfo<BadCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace ncgw::config
