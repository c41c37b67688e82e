// Edit distance and the "did you mean" choice.
#include <gtest/gtest.h>

#include <array>

#include "config/suggest.h"

namespace ncgw::config::detail {
namespace {

TEST(config_suggest, EditDistance) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("mtu", ""), 3u);
  EXPECT_EQ(edit_distance("transport", "trasport"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("ab", "ba"), 2u);
}

TEST(config_suggest, SuggestsOnlyCloseWords) {
  const std::array<std::string_view, 4> keys{"name", "endpoint", "transport", "tcpnc"};
  EXPECT_EQ(closest_match("trasnport", keys), std::optional<std::string_view>("transport"));
  EXPECT_EQ(closest_match("endpont", keys), std::optional<std::string_view>("endpoint"));
  EXPECT_EQ(closest_match("NAME", keys), std::optional<std::string_view>("name"));
  EXPECT_EQ(closest_match("colour", keys), std::nullopt);
  EXPECT_EQ(closest_match("nm", keys), std::nullopt);  // 2 edits of a 4-letter word: too far
}

}  // namespace
}  // namespace ncgw::config::detail
