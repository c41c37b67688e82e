// Every file in bad/ starts with "# expect: <name>:<line>:<col>: <key>: <message>" and must fail
// with exactly that message (prefixed by the directory it was loaded from).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "config/loader.h"

namespace ncgw::config {
namespace {

namespace fs = std::filesystem;

// The text after "# expect: " on the file's first line; empty if there is none.
std::string expected_message(const fs::path& file) {
  std::ifstream in(file);
  std::string first;
  std::getline(in, first);
  const std::string marker = "# expect: ";
  return first.rfind(marker, 0) == 0 ? first.substr(marker.size()) : std::string();
}

TEST(config_bad_files, EachFailsWithTheMessageItDeclares) {
  const fs::path dir = NCGW_CONFIG_BAD_DIR;
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().string());
    const std::string expected = expected_message(entry.path());
    ASSERT_FALSE(expected.empty()) << "first line must be '# expect: ...'";
    const LoadResult result = load_config_file(entry.path().string());
    const auto* error = std::get_if<ConfigError>(&result);
    ASSERT_NE(error, nullptr) << "accepted";
    EXPECT_EQ(format_error(*error), dir.string() + "/" + expected);
    ++checked;
  }
  EXPECT_GE(checked, 15);  // at least 15 bad files, each with its exact message
}

TEST(config_bad_files, MissingFileNamesThePathAndTheReason) {
  const LoadResult result = load_config_file("/nonexistent/ncgw/gw1.yaml");
  const auto* error = std::get_if<ConfigError>(&result);
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(format_error(*error), "/nonexistent/ncgw/gw1.yaml: cannot open: No such file or directory");
}

TEST(config_bad_files, DirectoryIsRejected) {
  const LoadResult result = load_config_file(NCGW_CONFIG_BAD_DIR);
  const auto* error = std::get_if<ConfigError>(&result);
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(format_error(*error), std::string(NCGW_CONFIG_BAD_DIR) + ": cannot read: is a directory");
}

TEST(config_bad_files, FormatWithoutPositionOrKey) {
  EXPECT_EQ(format_error(ConfigError{"a.yaml", 0, 0, "", "boom"}), "a.yaml: boom");
  EXPECT_EQ(format_error(ConfigError{"a.yaml", 3, 4, "", "boom"}), "a.yaml:3:4: boom");
  EXPECT_EQ(format_error(ConfigError{"a.yaml", 3, 4, "tun.mtu", "boom"}), "a.yaml:3:4: tun.mtu: boom");
}

}  // namespace
}  // namespace ncgw::config
