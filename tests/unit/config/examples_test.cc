// Every file in config/examples/ is a valid configuration, without warnings.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "config/loader.h"

namespace ncgw::config {
namespace {

namespace fs = std::filesystem;

TEST(config_examples, EveryExampleLoadsWithoutWarnings) {
  int loaded = 0;
  for (const auto& entry : fs::directory_iterator(NCGW_CONFIG_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".yaml") continue;
    std::vector<ConfigWarning> warnings;
    const LoadResult result = load_config_file(entry.path().string(), &warnings);
    if (const auto* error = std::get_if<ConfigError>(&result)) ADD_FAILURE() << format_error(*error);
    for (const auto& w : warnings) ADD_FAILURE() << format_warning(w);
    ++loaded;
  }
  EXPECT_GE(loaded, 7);  // plain, tcpnc and udt pairs and the cascade
}

TEST(config_examples, CascadeMiddleHasTwoPeersOfDifferentTransports) {
  const LoadResult result = load_config_file(std::string(NCGW_CONFIG_EXAMPLES_DIR) + "/cascade-gw2.yaml");
  const auto* config = std::get_if<GatewayConfig>(&result);
  ASSERT_NE(config, nullptr);
  ASSERT_EQ(config->peers.size(), 2u);
  EXPECT_EQ(config->peers[0].transport, TransportKind::tcpnc);
  EXPECT_EQ(config->peers[1].transport, TransportKind::udt);
  ASSERT_EQ(config->routes.size(), 2u);
  EXPECT_EQ(config->routes[1].via, "gw3");
}

}  // namespace
}  // namespace ncgw::config
