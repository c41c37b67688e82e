// Internal: a read-only YAML node that knows its key path and source position, so every check
// can fail with a precise ConfigError. Reads through const nodes only (non-const operator[]
// would insert keys).
#pragma once
#include <yaml-cpp/yaml.h>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/loader.h"

namespace ncgw::config::detail {

// Thrown inside the loader with the first error; load_config_string turns it into a result.
struct LoadFailure {
  ConfigError error;
};

// A node of the document, its key path ("peers[0].tcpnc") and the position errors point at.
class Node {
 public:
  // `file` must outlive the node (it is the label of the document being loaded); so must
  // `warnings`, where warn() appends (null: warnings are dropped). Children share both.
  Node(YAML::Node node, std::string path, YAML::Mark mark, const std::string* file,
       std::vector<ConfigWarning>* warnings = nullptr);

  // The underlying yaml-cpp node (const: reading never inserts).
  const YAML::Node& yaml() const { return node_; }
  // Key path of this node, e.g. "tun.addresses[1]".
  const std::string& path() const { return path_; }
  // 1-based line of this node.
  int line() const { return mark_.line < 0 ? 1 : mark_.line + 1; }

  // Throws LoadFailure with this node's position and path.
  [[noreturn]] void fail(const std::string& message) const;
  // The error this node would raise, without throwing.
  ConfigError error(const std::string& message) const;
  // Records a warning at this node's position and path; loading goes on.
  void warn(const std::string& message) const;
  // What this node is, for "got ..." in messages: "null", "a sequence", "a mapping" or 'text'.
  std::string describe() const;

  // Fails unless this is a mapping whose keys are distinct scalars from `allowed`.
  void check_keys(std::span<const std::string_view> allowed) const;
  // The value under `key`, if present (call check_keys first).
  std::optional<Node> find(std::string_view key) const;
  // The value under `key`, or fails with "missing required key".
  Node require(std::string_view key) const;
  // The elements of a sequence (fails unless this is one).
  std::vector<Node> elements() const;

 private:
  // Path of a child under `key`.
  std::string child_path(std::string_view key) const;

  YAML::Node node_;
  std::string path_;
  YAML::Mark mark_;
  const std::string* file_;
  std::vector<ConfigWarning>* warnings_;
};

}  // namespace ncgw::config::detail
