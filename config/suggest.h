// "Did you mean": the allowed word closest to a misspelt one.
#pragma once
#include <optional>
#include <span>
#include <string_view>

namespace ncgw::config::detail {

// Number of single-character insertions, deletions and substitutions turning `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` if it is close enough to be a likely typo; nothing otherwise.
std::optional<std::string_view> closest_match(std::string_view word,
                                              std::span<const std::string_view> candidates);

}  // namespace ncgw::config::detail
