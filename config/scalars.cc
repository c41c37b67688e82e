// Typed scalar readers: integers, reals, booleans and strings with bounds and clear messages.
#include "config/scalars.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace ncgw::config::detail {
namespace {

// "an integer in 576..9000".
std::string integer_range(std::uint64_t min, std::uint64_t max) {
  return "an integer in " + std::to_string(min) + ".." + std::to_string(max);
}

// "a number in (0, 1)" / "a number in [1, 10]".
std::string real_range(const RealRange& r) {
  return std::string("a number in ") + (r.min_open ? "(" : "[") + format_real(r.min) + ", " +
         format_real(r.max) + (r.max_open ? ")" : "]");
}

// Fails unless the node is a scalar; `what` is the expectation, e.g. "an integer in 1..10".
void expect_scalar(const Node& node, const std::string& what) {
  if (!node.yaml().IsScalar()) node.fail("expected " + what + ", got " + node.describe());
}

}  // namespace

std::optional<std::uint64_t> parse_decimal(std::string_view text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

std::string read_string(const Node& node) {
  expect_scalar(node, "a string");
  return node.yaml().Scalar();
}

std::uint64_t read_uint(const Node& node, std::uint64_t min, std::uint64_t max) {
  const std::string what = integer_range(min, max);
  expect_scalar(node, what);
  const std::string& text = node.yaml().Scalar();
  const auto value = parse_decimal(text);
  if (!value) {
    const bool digits_only = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
    if (digits_only) node.fail("expected " + what + ", got " + text + " (too large)");
    node.fail("expected " + what + ", got " + node.describe());
  }
  if (*value < min || *value > max) node.fail("expected " + what + ", got " + text);
  return *value;
}

double read_real(const Node& node, RealRange range) {
  const std::string what = real_range(range);
  expect_scalar(node, what);
  const std::string& text = node.yaml().Scalar();
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) {
    node.fail("expected " + what + ", got " + node.describe());
  }
  const bool low = range.min_open ? value <= range.min : value < range.min;
  const bool high = range.max_open ? value >= range.max : value > range.max;
  if (low || high) node.fail("expected " + what + ", got " + text);
  return value;
}

bool read_bool(const Node& node) {
  if (node.yaml().IsScalar()) {
    const std::string& text = node.yaml().Scalar();
    if (text == "true") return true;
    if (text == "false") return false;
  }
  node.fail("expected true or false, got " + node.describe());
}

std::string format_real(double value) {
  char buffer[64];
  const auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc() ? std::string(buffer, ptr) : std::to_string(value);
}

}  // namespace ncgw::config::detail
