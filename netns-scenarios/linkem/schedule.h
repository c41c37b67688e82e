// Time-varying settings: a schedule of "<seconds> <a2b|b2a|both> key=value ..." lines. Pure.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace linkem {

// Which direction(s) a change applies to.
enum class Target { a2b, b2a, both };

// One timed change: at `at_ns` after start, apply `spec` to `target`.
struct ScheduledChange {
  std::int64_t at_ns = 0;
  Target target = Target::both;
  std::string spec;
};

// Parses a schedule text ('#' comments, blank lines ignored). On error returns false and sets
// `error` to "line N: ...". The result is sorted by time (stable).
bool parse_schedule(const std::string& text, std::vector<ScheduledChange>& out, std::string& error);

// Parses "a2b", "b2a" or "both".
bool parse_target(const std::string& word, Target& t);

}  // namespace linkem
