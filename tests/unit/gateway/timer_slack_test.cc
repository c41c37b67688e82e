// The daemon's timer coalescing rule: an armed timer serves a deadline it fires neither before
// nor more than the slack after.
#include "gateway/timer_slack.h"

#include <gtest/gtest.h>

namespace ncgw::gateway {
namespace {

using transport::TimePoint;
using std::chrono::microseconds;

const TimePoint kDeadline{std::chrono::milliseconds(5)};

TEST(TimerSlack, NothingArmedServesNothing) { EXPECT_FALSE(armed_timer_serves(std::nullopt, kDeadline)); }

TEST(TimerSlack, ArmedTimerServesDeadlinesUpToTheSlackBeforeIt) {
  const TimePoint fire = timer_fire_time(kDeadline);
  EXPECT_EQ(fire - kDeadline, kTimerSlack);
  EXPECT_TRUE(armed_timer_serves(fire, kDeadline));
  EXPECT_TRUE(armed_timer_serves(fire, kDeadline + microseconds(60)));   // a pacing deadline moved on
  EXPECT_TRUE(armed_timer_serves(fire, fire));
}

TEST(TimerSlack, ArmedTimerDoesNotServeAnEarlierOrLaterDeadline) {
  const TimePoint fire = timer_fire_time(kDeadline);
  EXPECT_FALSE(armed_timer_serves(fire, kDeadline - microseconds(1)));   // would fire too late
  EXPECT_FALSE(armed_timer_serves(fire, fire + microseconds(1)));        // would fire too early
}

}  // namespace
}  // namespace ncgw::gateway
