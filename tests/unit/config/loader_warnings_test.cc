// Configurations that load with warnings: tcpnc buffers smaller than paper 002 section 2.2 sizes
// them (link buffer R_max x CWND_max, sending buffer CWND_max + link buffer). Exact messages.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "config/loader.h"

namespace ncgw::config {
namespace {

// A gateway with one tcpnc peer whose `tcpnc:` block holds `settings` (one key a line, indented
// by 6 spaces, from line 8 on) and, unless `settings` sets it, cwnd_max_packets 200 after them (the
// warnings concern a fixed window; the automatic default has none); loaded as "test.yaml".
// Returns the formatted warnings.
std::vector<std::string> warnings_for(const std::string& settings) {
  const std::string yaml = "gateway: {name: gw1}\n"
                           "peers:\n"
                           "  - name: gw2\n"
                           "    endpoint: 10.0.0.2\n"
                           "    transport: tcpnc\n    security: none\n"
                           "    tcpnc:\n" +
                           settings +
                           (settings.find("cwnd_max_packets") == std::string::npos ? "      cwnd_max_packets: 200\n" : "");
  std::vector<ConfigWarning> warnings;
  const LoadResult result = load_config_string(yaml, "test.yaml", &warnings);
  if (const auto* error = std::get_if<ConfigError>(&result)) {
    ADD_FAILURE() << format_error(*error);
    return {};
  }
  std::vector<std::string> out;
  for (const auto& w : warnings) out.push_back(format_warning(w));
  return out;
}

using Lines = std::vector<std::string>;

TEST(config_warnings, LinkBufferBelowRmaxTimesCwndMax) {
  // r_max 2.0 and cwnd_max_packets 200 by default: the paper's link buffer is 400.
  EXPECT_EQ(warnings_for("      link_buffer_packets: 3\n"),
            Lines{"test.yaml:8:28: warning: peers[0].tcpnc.link_buffer_packets: link_buffer_packets (3) is "
                  "below ceil(r_max x cwnd_max_packets) (400): a full window at the largest redundancy does "
                  "not fit (paper 002 section 2.2); 0 selects 400"});
}

TEST(config_warnings, LinkBufferThresholdIsTheCeiling) {
  // ceil(1.5 x 63) = 95, the default link buffer of effective_link_buffer().
  const std::string head = "      cwnd_max_packets: 63\n      r_max: 1.5\n";
  EXPECT_EQ(warnings_for(head + "      link_buffer_packets: 95\n"), Lines{});
  EXPECT_EQ(warnings_for(head + "      link_buffer_packets: 94\n"),
            Lines{"test.yaml:10:28: warning: peers[0].tcpnc.link_buffer_packets: link_buffer_packets (94) is "
                  "below ceil(r_max x cwnd_max_packets) (95): a full window at the largest redundancy does "
                  "not fit (paper 002 section 2.2); 0 selects 95"});
}

TEST(config_warnings, PaperValuesWarnOnlyWithNcgwsLargerDefaultRmax) {
  // Paper 002 section 3.1: CWND_max 63, link buffer 100, sending buffer 163, with R_max about 1.5.
  const std::string paper = "      cwnd_max_packets: 63\n      link_buffer_packets: 100\n"
                            "      sending_buffer_packets: 163\n";
  EXPECT_EQ(warnings_for(paper + "      r_max: 1.5\n"), Lines{});
  EXPECT_EQ(warnings_for(paper),
            Lines{"test.yaml:9:28: warning: peers[0].tcpnc.link_buffer_packets: link_buffer_packets (100) is "
                  "below ceil(r_max x cwnd_max_packets) (126): a full window at the largest redundancy does "
                  "not fit (paper 002 section 2.2); 0 selects 126"});
}

TEST(config_warnings, SendingBufferBelowCwndMaxPlusLinkBuffer) {
  EXPECT_EQ(warnings_for("      sending_buffer_packets: 300\n"),
            Lines{"test.yaml:8:31: warning: peers[0].tcpnc.sending_buffer_packets: sending_buffer_packets (300) "
                  "is below cwnd_max_packets + link buffer (200 + 400 = 600, paper 002 section 2.2); 0 selects "
                  "600"});
  // The link buffer as set counts, not the default: 200 + 500 = 700.
  EXPECT_EQ(warnings_for("      link_buffer_packets: 500\n      sending_buffer_packets: 700\n"), Lines{});
  EXPECT_EQ(warnings_for("      link_buffer_packets: 500\n      sending_buffer_packets: 699\n"),
            Lines{"test.yaml:9:31: warning: peers[0].tcpnc.sending_buffer_packets: sending_buffer_packets (699) "
                  "is below cwnd_max_packets + link buffer (200 + 500 = 700, paper 002 section 2.2); 0 selects "
                  "700"});
}

TEST(config_warnings, BothInDocumentOrder) {
  EXPECT_EQ(warnings_for("      cwnd_max_packets: 10\n      link_buffer_packets: 3\n"
                         "      sending_buffer_packets: 12\n"),
            (Lines{"test.yaml:9:28: warning: peers[0].tcpnc.link_buffer_packets: link_buffer_packets (3) is "
                   "below ceil(r_max x cwnd_max_packets) (20): a full window at the largest redundancy does "
                   "not fit (paper 002 section 2.2); 0 selects 20",
                   "test.yaml:10:31: warning: peers[0].tcpnc.sending_buffer_packets: sending_buffer_packets (12) "
                   "is below cwnd_max_packets + link buffer (10 + 3 = 13, paper 002 section 2.2); 0 selects 13"}));
}

TEST(config_warnings, DefaultsAndZeroesDoNotWarn) {
  EXPECT_EQ(warnings_for("      cwnd_max_packets: 100000\n      r_max: 16\n"), Lines{});
  EXPECT_EQ(warnings_for("      link_buffer_packets: 0\n      sending_buffer_packets: 0\n"), Lines{});
  EXPECT_EQ(warnings_for("      link_buffer_packets: 999800\n      sending_buffer_packets: 1000000\n"), Lines{});
}

TEST(config_warnings, SendingBufferBelowCwndMaxStaysAnError) {
  std::vector<ConfigWarning> warnings;
  const LoadResult result = load_config_string(R"(gateway: {name: gw1}
peers:
  - name: gw2
    endpoint: 10.0.0.2
    transport: tcpnc
    security: none
    tcpnc: {link_buffer_packets: 3, sending_buffer_packets: 100, cwnd_max_packets: 200}
)", "test.yaml", &warnings);
  const auto* error = std::get_if<ConfigError>(&result);
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(format_error(*error), "test.yaml:7:61: peers[0].tcpnc.sending_buffer_packets: sending_buffer_packets "
                                  "(100) must be 0 or at least cwnd_max_packets (200)");
  EXPECT_TRUE(warnings.empty());
}

TEST(config_warnings, ClearedWhenALaterErrorRejectsTheFile) {
  std::vector<ConfigWarning> warnings{ConfigWarning{"stale.yaml", 1, 1, "", "stale"}};
  const LoadResult result = load_config_string(R"(gateway: {name: gw1}
peers:
  - {name: gw2, endpoint: 10.0.0.2, transport: tcpnc, security: none, tcpnc: {link_buffer_packets: 3}}
routes:
  - {prefix: 10.2.0.0/24, via: gw9}
)", "test.yaml", &warnings);
  ASSERT_TRUE(std::holds_alternative<ConfigError>(result));
  EXPECT_TRUE(warnings.empty());
}

TEST(config_warnings, SecondPeerAndFlowStyle) {
  std::vector<ConfigWarning> warnings{ConfigWarning{"stale.yaml", 1, 1, "", "stale"}};
  const LoadResult result = load_config_string(R"(gateway: {name: gw1}
peers:
  - {name: gw2, endpoint: 10.0.0.2, transport: tcpnc, security: none}
  - {name: gw3, endpoint: 10.0.0.3, transport: tcpnc, security: none, tcpnc: {link_buffer_packets: 3, cwnd_max_packets: 200}}
)", "test.yaml", &warnings);
  ASSERT_TRUE(std::holds_alternative<GatewayConfig>(result));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].file, "test.yaml");
  EXPECT_EQ(warnings[0].line, 4);
  EXPECT_EQ(warnings[0].column, 100);
  EXPECT_EQ(warnings[0].key_path, "peers[1].tcpnc.link_buffer_packets");
}

TEST(config_warnings, FileLoaderReportsThePath) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("ncgw-warn-" + std::to_string(::getpid()) + ".yaml");
  {
    std::ofstream out(path);
    out << "gateway: {name: gw1}\npeers:\n  - name: gw2\n    endpoint: 10.0.0.2\n    transport: tcpnc\n    security: none\n"
           "    tcpnc: {link_buffer_packets: 3, cwnd_max_packets: 200}\n";
  }
  std::vector<ConfigWarning> warnings;
  const LoadResult result = load_config_file(path.string(), &warnings);
  std::filesystem::remove(path);
  ASSERT_TRUE(std::holds_alternative<GatewayConfig>(result));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(format_warning(warnings[0]).substr(0, path.string().size() + 15), path.string() + ":7:34: warning:");
}

TEST(config_warnings, FormatWithoutPositionOrKey) {
  EXPECT_EQ(format_warning(ConfigWarning{"a.yaml", 0, 0, "", "hm"}), "a.yaml: warning: hm");
  EXPECT_EQ(format_warning(ConfigWarning{"a.yaml", 3, 4, "", "hm"}), "a.yaml:3:4: warning: hm");
  EXPECT_EQ(format_warning(ConfigWarning{"a.yaml", 3, 4, "tun.mtu", "hm"}), "a.yaml:3:4: warning: tun.mtu: hm");
}

}  // namespace
}  // namespace ncgw::config
