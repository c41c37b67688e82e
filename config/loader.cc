// load_config_string / load_config_file: YAML parsing, the top-level mapping, and turning the
// first LoadFailure into a ConfigError.
#include "config/loader.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/sections.h"
#include "config/yaml_node.h"

namespace ncgw::config {
namespace {

using detail::LoadFailure;
using detail::Node;

// Reads the top-level mapping, section by section (each later section may use the earlier ones).
GatewayConfig read_document(const Node& root) {
  static constexpr std::array<std::string_view, 7> keys{"gateway", "tun", "listen", "fudp", "peers",
                                                        "routes", "logging"};
  root.check_keys(keys);
  GatewayConfig config;
  detail::read_gateway(root.require("gateway"), config);
  if (const auto n = root.find("tun")) config.tun = detail::read_tun(*n);
  detail::check_internal_interfaces(root.require("gateway"), config);
  if (const auto n = root.find("listen")) config.listen = detail::read_listen(*n);
  if (const auto n = root.find("logging")) config.logging = detail::read_logging(*n);
  if (const auto n = root.find("fudp")) config.fudp = detail::read_fudp(*n, config.fudp);
  if (const auto n = root.find("peers")) config.peers = detail::read_peers(*n, config);
  if (const auto n = root.find("routes")) config.routes = detail::read_routes(*n, config);
  return config;
}

// A YAML syntax error at its (0-based) mark.
ConfigError syntax_error(const std::string& file, const YAML::Mark& mark, const std::string& msg) {
  return ConfigError{file, mark.line < 0 ? 1 : mark.line + 1, mark.column < 0 ? 1 : mark.column + 1, "",
                     "YAML syntax error: " + msg};
}

}  // namespace

LoadResult load_config_string(std::string_view yaml, std::string file_label,
                              std::vector<ConfigWarning>* warnings) {
  if (warnings != nullptr) warnings->clear();
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(std::string(yaml));
  } catch (const YAML::ParserException& e) {
    return syntax_error(file_label, e.mark, e.msg);
  } catch (const YAML::Exception& e) {
    return syntax_error(file_label, e.mark, e.msg);
  }
  if (documents.empty() || documents.front().IsNull()) {
    return ConfigError{file_label, 1, 1, "", "the document is empty; expected a mapping with at least 'gateway'"};
  }
  try {
    if (documents.size() > 1) {
      Node(documents[1], "", documents[1].Mark(), &file_label).fail("expected one YAML document, found a second one");
    }
    const Node root(documents.front(), "", documents.front().Mark(), &file_label, warnings);
    return read_document(root);
  } catch (const LoadFailure& failure) {
    if (warnings != nullptr) warnings->clear();  // the error is what matters
    return failure.error;
  }
}

LoadResult load_config_file(const std::string& path, std::vector<ConfigWarning>* warnings) {
  if (warnings != nullptr) warnings->clear();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return ConfigError{path, 0, 0, "", "cannot read: is a directory"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return ConfigError{path, 0, 0, "", std::string("cannot open: ") + std::strerror(errno)};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return ConfigError{path, 0, 0, "", std::string("cannot read: ") + std::strerror(errno)};
  return load_config_string(text.str(), path, warnings);
}

}  // namespace ncgw::config
