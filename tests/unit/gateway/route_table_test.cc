// Longest-prefix match over IPv4 and IPv6 routes.
#include <gtest/gtest.h>

#include "gateway/route_table.h"

namespace ncgw::gateway {
namespace {

config::Prefix P(const char* s) { return *config::parse_prefix(s); }
config::IpAddress A(const char* s) { return *config::parse_ip(s); }

TEST(RouteTable, LongestPrefixWins) {
  RouteTable t;
  t.add(P("10.0.0.0/8"), 0);
  t.add(P("10.2.0.0/16"), 1);
  t.add(P("10.2.3.0/24"), 2);
  EXPECT_EQ(t.lookup(A("10.2.3.4")), 2u);
  EXPECT_EQ(t.lookup(A("10.2.4.4")), 1u);
  EXPECT_EQ(t.lookup(A("10.9.9.9")), 0u);
  EXPECT_FALSE(t.lookup(A("11.0.0.1")));
}

TEST(RouteTable, OrderOfInsertionDoesNotMatter) {
  RouteTable t;
  t.add(P("10.2.3.0/24"), 2);
  t.add(P("10.0.0.0/8"), 0);
  EXPECT_EQ(t.lookup(A("10.2.3.4")), 2u);
  EXPECT_EQ(t.lookup(A("10.2.4.4")), 0u);
}

TEST(RouteTable, DefaultRouteAndReplace) {
  RouteTable t;
  t.add(P("0.0.0.0/0"), 3);
  EXPECT_EQ(t.lookup(A("8.8.8.8")), 3u);
  t.add(P("0.0.0.0/0"), 4);
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(t.lookup(A("8.8.8.8")), 4u);
}

TEST(RouteTable, FamiliesAreSeparate) {
  RouteTable t;
  t.add(P("fd00:1::/32"), 1);
  t.add(P("0.0.0.0/0"), 0);
  EXPECT_EQ(t.lookup(A("fd00:1::5")), 1u);
  EXPECT_FALSE(t.lookup(A("fd00:2::5")));
  EXPECT_EQ(t.lookup(A("10.0.0.1")), 0u);
}

TEST(RouteTable, NonByteAlignedPrefix) {
  RouteTable t;
  t.add(P("10.1.0.0/20"), 1);
  EXPECT_EQ(t.lookup(A("10.1.15.255")), 1u);
  EXPECT_FALSE(t.lookup(A("10.1.16.0")));
}

}  // namespace
}  // namespace ncgw::gateway
