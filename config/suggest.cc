// Levenshtein distance and the closest-candidate choice behind "did you mean".
#include "config/suggest.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace ncgw::config::detail {
namespace {

// Lower-case copy, so "MTU" suggests "mtu".
std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string_view> closest_match(std::string_view word,
                                              std::span<const std::string_view> candidates) {
  const std::string w = lower(word);
  std::optional<std::string_view> best;
  std::size_t best_distance = 0;
  for (std::string_view c : candidates) {
    const std::size_t d = edit_distance(w, lower(c));
    if (!best || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  // A typo: at most 2 edits, and fewer than a third of the longer word.
  if (best && best_distance <= 2 && best_distance * 3 < std::max(w.size(), best->size())) return best;
  return std::nullopt;
}

}  // namespace ncgw::config::detail
