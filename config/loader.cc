// load_config_string / load_config_file: YAML parsing, the top-level mapping, and turning the
// first LoadFailure into a ConfigError.
#include "config/loader.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <yaml-cpp/eventhandler.h>

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

// Where the second document of a stream starts, if there is one: parses at most two documents
// without building them. yaml-cpp 0.7's LoadAll never returns on some malformed input (a document
// that begins with ',' is handed out again and again), so the loader asks only for what it needs.
class SecondDocumentFinder : public YAML::EventHandler {
 public:
  std::optional<YAML::Mark> find(const std::string& text) {
    std::istringstream in(text);
    YAML::Parser parser(in);
    while (documents_ < 2 && parser.HandleNextDocument(*this)) {
    }
    return second_;
  }
  void OnDocumentStart(const YAML::Mark& mark) override {
    ++documents_;
    if (documents_ == 2) second_ = mark;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { root_at(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { root_at(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override {
    root_at(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    root_at(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    root_at(mark);
  }
  void OnMapEnd() override {}

 private:
  // The second document is reported where its root node starts (its first event).
  void root_at(const YAML::Mark& mark) {
    if (documents_ == 2 && !root_seen_) {
      second_ = mark;
      root_seen_ = true;
    }
  }
  int documents_ = 0;
  bool root_seen_ = false;
  std::optional<YAML::Mark> second_;
};

// Offset of the first byte that does not belong to well-formed UTF-8 (no overlongs, surrogates or
// code points past U+10FFFF), or npos. YAML text is Unicode; yaml-cpp would pass such bytes through
// on reading and replace them on writing, so the loader refuses them.
std::size_t first_invalid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto b = static_cast<unsigned char>(text[i]);
    const std::size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > text.size()) return i;
    std::uint32_t cp = len == 1 ? b : b & (0x7F >> len);
    for (std::size_t k = 1; k < len; ++k) {
      const auto c = static_cast<unsigned char>(text[i + k]);
      if ((c >> 6) != 0x2) return i;
      cp = (cp << 6) | (c & 0x3F);
    }
    static constexpr std::uint32_t kMinForLength[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMinForLength[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += len;
  }
  return std::string_view::npos;
}

// The error for an invalid byte at `offset` of `text`, with its 1-based line and column.
ConfigError not_utf8(const std::string& file, std::string_view text, std::size_t offset) {
  const std::string_view before = text.substr(0, offset);
  const std::size_t line_start = before.rfind('\n');
  const int line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
  const int column = 1 + static_cast<int>(line_start == std::string_view::npos ? offset : offset - line_start - 1);
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(text[offset]));
  return ConfigError{file, line, column, "", std::string("not UTF-8 text (byte ") + hex + ")"};
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
  if (const std::size_t bad = first_invalid_utf8(yaml); bad != std::string_view::npos) {
    return not_utf8(file_label, yaml, bad);
  }
  const std::string text(yaml);
  YAML::Node document;
  std::optional<YAML::Mark> second;
  try {
    second = SecondDocumentFinder().find(text);
    document = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    return syntax_error(file_label, e.mark, e.msg);
  } catch (const YAML::Exception& e) {
    return syntax_error(file_label, e.mark, e.msg);
  }
  if (!document.IsDefined() || document.IsNull()) {
    return ConfigError{file_label, 1, 1, "", "the document is empty; expected a mapping with at least 'gateway'"};
  }
  try {
    if (second) Node(YAML::Node(), "", *second, &file_label).fail("expected one YAML document, found a second one");
    const Node root(document, "", document.Mark(), &file_label, warnings);
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
