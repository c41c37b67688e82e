// Schedule files of time-varying settings.
#include <gtest/gtest.h>

#include "netns-scenarios/linkem/schedule.h"

namespace linkem {
namespace {

TEST(Schedule, ParsesSortsAndSkipsComments) {
  std::vector<ScheduledChange> s;
  std::string err;
  ASSERT_TRUE(parse_schedule("# loss steps\n10 a2b loss=0.1\n\n2.5 both delay=5ms  # faster\n", s, err))
      << err;
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].at_ns, 2500000000);
  EXPECT_EQ(s[0].target, Target::both);
  EXPECT_EQ(s[1].at_ns, 10000000000);
  EXPECT_EQ(s[1].target, Target::a2b);
  EXPECT_NE(s[1].spec.find("loss=0.1"), std::string::npos);
}

TEST(Schedule, ReportsTheBadLine) {
  std::vector<ScheduledChange> s;
  std::string err;
  EXPECT_FALSE(parse_schedule("1 a2b loss=0.1\n2 sideways loss=0\n", s, err));
  EXPECT_NE(err.find("line 2"), std::string::npos);
  EXPECT_FALSE(parse_schedule("x a2b loss=0.1\n", s, err));
  EXPECT_FALSE(parse_schedule("1 a2b loss=7\n", s, err));
  EXPECT_NE(err.find("line 1"), std::string::npos);
}

}  // namespace
}  // namespace linkem
