// `tun.mtu: auto` resolves to the underlay MTU minus every header the tunnel adds (what the daemon
// sets and `ncgw check-config` prints).
#include <gtest/gtest.h>

#include <string>

#include "config/loader.h"
#include "gateway/core_factory.h"

namespace ncgw::gateway {
namespace {

// The auto MTU of a gateway with one peer at `endpoint` over `transport`, underlay MTU `underlay`.
// `security` is the peer's security keys in flow style (default: a plaintext peer).
std::uint32_t auto_mtu(const std::string& transport, const std::string& endpoint, int underlay,
                       const std::string& security = "security: none") {
  const std::string yaml = "gateway: {name: gw1, private_key_file: /unused}\ntun: {underlay_mtu: " + std::to_string(underlay) +
                           "}\nlisten: {address: \"" + (endpoint[0] == 'f' ? "::" : "0.0.0.0") +
                           "\"}\npeers:\n  - {name: gw2, endpoint: \"" + endpoint + "\", transport: " +
                           transport + ", " + security + "}\n";
  auto result = config::load_config_string(yaml, "t.yaml");
  const auto* cfg = std::get_if<config::GatewayConfig>(&result);
  if (!cfg) ADD_FAILURE() << config::format_error(std::get<config::ConfigError>(result));
  return cfg ? auto_tun_mtu(*cfg) : 0;
}

TEST(AutoMtu, PlainOverIpv4Is40BytesBelowTheUnderlay) {
  EXPECT_EQ(auto_mtu("plain", "192.0.2.2", 1500), 1460u);
  EXPECT_EQ(auto_mtu("plain", "192.0.2.2", 1400), 1360u);
}

TEST(AutoMtu, Ipv6UnderlayCostsTwentyMore) {
  EXPECT_EQ(auto_mtu("plain", "fd00::2", 1500), 1440u);
  // Every transport pays the IPv6 header, UDT included (its MSS counts IP + UDP headers: 1500 - 48
  // - 16; the reference library assumes 28 on any family).
  EXPECT_EQ(auto_mtu("udt", "fd00::2", 1500), 1436u);
  EXPECT_EQ(auto_mtu("tcpnc", "fd00::2", 1500), auto_mtu("tcpnc", "192.0.2.2", 1500) - 20);
}

TEST(AutoMtu, CodedTransportsCarryTheirOwnHeaders) {
  EXPECT_EQ(auto_mtu("udt", "192.0.2.2", 1500), 1456u);   // docs/traps.md: MSS - 28 - 16
  // TCP/NC: the largest coded source is 1500 - 28 - 12 (DATA header) - 15 (a repair's coding header,
  // seed and length) = 1445 bytes. Without header compression a packet must fit one source; with it, the MTU
  // is sized for a bulk TCP/IPv4 segment with timestamps travelling compressed (a form head of at
  // most 16 bytes instead of 52 header bytes), and anything longer goes as two sources.
  EXPECT_EQ(auto_mtu("tcpnc", "192.0.2.2", 1500, "security: none, tcpnc: {header_compression: false}"), 1445u);
  EXPECT_EQ(auto_mtu("tcpnc", "192.0.2.2", 1500), 1445u - 16u + 52u);
}

TEST(AutoMtu, SecuredPeersPayTheRecordOverhead) {
  const std::string key = "public_key: \"u2bqPPUu9/vRQ486VtisYrnvmPgslwx8iNBxtyx8Rn0=\"";
  for (const char* t : {"plain", "tcpnc", "udt"}) {
    for (const char* host : {"192.0.2.2", "fd00::2"}) {
      // A record is 27 bytes: type 1, receiver index 4, counter 6, tag 16.
      EXPECT_EQ(auto_mtu(t, host, 1500, key) + 27, auto_mtu(t, host, 1500)) << t << " " << host;
    }
  }
}

}  // namespace
}  // namespace ncgw::gateway
