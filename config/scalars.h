// Internal: typed scalar readers with bounds; each fails with "expected ..., got ..." on its node.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "config/yaml_node.h"

namespace ncgw::config::detail {

// A decimal integer without sign, leading '+' or separators; nothing on error or overflow.
std::optional<std::uint64_t> parse_decimal(std::string_view text);

// Any scalar as text (a number is fine: `name: 123` is the string "123").
std::string read_string(const Node& node);

// A decimal integer in [min, max].
std::uint64_t read_uint(const Node& node, std::uint64_t min, std::uint64_t max);

// read_uint narrowed to the field's type.
template <typename T>
T read_uint_as(const Node& node, T min, T max) {
  return static_cast<T>(read_uint(node, min, max));
}

// Bounds of a real number; `open` excludes the end point.
struct RealRange {
  double min;
  bool min_open;
  double max;
  bool max_open;
};

// A finite real number inside `range`.
double read_real(const Node& node, RealRange range);

// `true` or `false`.
bool read_bool(const Node& node);

// A real number as the shortest text that reads back to the same value.
std::string format_real(double value);

// One of a fixed set of words, mapped to its value.
template <typename E>
E read_choice(const Node& node, std::span<const std::pair<std::string_view, E>> choices) {
  const std::string text = node.yaml().IsScalar() ? node.yaml().Scalar() : std::string();
  std::string names;
  for (const auto& [name, value] : choices) {
    if (node.yaml().IsScalar() && text == name) return value;
    names += (names.empty() ? "" : ", ") + std::string(name);
  }
  node.fail("expected one of " + names + ", got " + node.describe());
}

}  // namespace ncgw::config::detail
