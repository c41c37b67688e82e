// Node: key checks (unknown, duplicate, did-you-mean), child lookup and positioned failures.
#include "config/yaml_node.h"

#include <map>

#include "config/suggest.h"

namespace ncgw::config::detail {
namespace {

// "name, endpoint, transport" from the allowed keys.
std::string join(std::span<const std::string_view> words) {
  std::string out;
  for (std::string_view w : words) {
    if (!out.empty()) out += ", ";
    out += w;
  }
  return out;
}

// A null value's mark points past it (at the next token): blame the key instead.
YAML::Mark value_mark(const YAML::Node& key, const YAML::Node& value) {
  return value.IsNull() ? key.Mark() : value.Mark();
}

}  // namespace

Node::Node(YAML::Node node, std::string path, YAML::Mark mark, const std::string* file,
           std::vector<ConfigWarning>* warnings)
    : node_(std::move(node)), path_(std::move(path)), mark_(mark), file_(file), warnings_(warnings) {}

ConfigError Node::error(const std::string& message) const {
  const int column = mark_.line < 0 ? 1 : mark_.column + 1;
  return ConfigError{*file_, line(), column, path_, message};
}

void Node::fail(const std::string& message) const { throw LoadFailure{error(message)}; }

void Node::warn(const std::string& message) const {
  if (warnings_ == nullptr) return;
  const ConfigError e = error(message);
  warnings_->push_back(ConfigWarning{e.file, e.line, e.column, e.key_path, e.message});
}

std::string Node::describe() const {
  switch (node_.Type()) {
    case YAML::NodeType::Sequence: return "a sequence";
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Scalar: return "'" + node_.Scalar() + "'";
    default: return "null";
  }
}

void Node::check_keys(std::span<const std::string_view> allowed) const {
  if (!node_.IsMap()) fail("expected a mapping, got " + describe());
  std::map<std::string, int> seen;  // key -> line of its first occurrence
  for (const auto& entry : node_) {  // iterator values are temporaries: hold them by value
    const YAML::Node key = entry.first;
    const Node key_node(key, path_, key.Mark(), file_, warnings_);
    if (!key.IsScalar()) key_node.fail("expected a key name, got " + key_node.describe());
    const Node named(key, child_path(key.Scalar()), key.Mark(), file_, warnings_);
    const auto [first, inserted] = seen.emplace(key.Scalar(), named.line());
    if (!inserted) named.fail("duplicate key (first at line " + std::to_string(first->second) + ")");
    bool known = false;
    for (std::string_view a : allowed) known = known || a == key.Scalar();
    if (known) continue;
    if (const auto guess = closest_match(key.Scalar(), allowed)) {
      named.fail("unknown key; did you mean '" + std::string(*guess) + "'?");
    }
    named.fail("unknown key; expected one of " + join(allowed));
  }
}

std::optional<Node> Node::find(std::string_view key) const {
  for (const auto& entry : node_) {
    const YAML::Node k = entry.first;
    const YAML::Node v = entry.second;
    if (k.IsScalar() && k.Scalar() == key) return Node(v, child_path(key), value_mark(k, v), file_, warnings_);
  }
  return std::nullopt;
}

Node Node::require(std::string_view key) const {
  if (auto found = find(key)) return *found;
  fail("missing required key '" + std::string(key) + "'");
}

std::vector<Node> Node::elements() const {
  if (!node_.IsSequence()) fail("expected a sequence, got " + describe());
  std::vector<Node> out;
  for (std::size_t i = 0; i < node_.size(); ++i) {
    const YAML::Node element = node_[i];  // const operator[]: no insertion
    out.emplace_back(element, path_ + "[" + std::to_string(i) + "]",
                     element.IsNull() ? mark_ : element.Mark(), file_, warnings_);
  }
  return out;
}

std::string Node::child_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

}  // namespace ncgw::config::detail
