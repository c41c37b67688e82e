// How late the daemon may fire a core's timer, and when a timer already armed may stay armed.
// A timer armed up to kTimerSlack after a core's deadline stays armed while the deadline moves
// within that window, instead of being re-armed (timerfd_settime, a VM exit on virtual machines:
// 4-10 % of a sending gateway's CPU in profiles) at each move; a paced core sends what came due
// meanwhile in the same wake-up. Every core's pacing tolerates that much lateness without losing
// rate (UDT's pacing credit is 200 us, TCP/NC's pacer allows a millisecond's burst), and its
// protocol timers run in milliseconds. Measured: TCP/NC +4-10 %; UDT unchanged (its pacing
// deadline needs a new arming after each fire anyway), docs/results/datapath.md.
#pragma once
#include <optional>

#include "transports/common/time.h"

namespace ncgw::gateway {

// Latest a timer may fire after the deadline it serves.
inline constexpr transport::Duration kTimerSlack = std::chrono::microseconds(100);

// Whether a timer armed to fire at `armed` also serves `deadline`: it fires neither before the
// deadline nor more than kTimerSlack after it.
inline bool armed_timer_serves(std::optional<transport::TimePoint> armed, transport::TimePoint deadline) {
  return armed && *armed >= deadline && *armed - deadline <= kTimerSlack;
}

// When to arm a timer for `deadline`: as late as the slack allows, so that the deadline's later
// moves (a pacing deadline moves forward by a packet's period at each send) keep it armed.
inline transport::TimePoint timer_fire_time(transport::TimePoint deadline) { return deadline + kTimerSlack; }

}  // namespace ncgw::gateway
