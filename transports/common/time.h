// Time as the sans-I/O cores see it: a monotonic point injected by the caller, never read here.
#pragma once
#include <chrono>
#include <cstdint>

namespace ncgw::transport {

// Tag clock for core time. It has no now(): the driver (gateway/ or the simulator) supplies time.
struct CoreClock {
  using rep = std::int64_t;
  using period = std::nano;
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<CoreClock, duration>;
  static constexpr bool is_steady = true;
};

// A duration in core time (nanosecond resolution).
using Duration = CoreClock::duration;
// A point in core time; zero is whatever epoch the driver chose (the simulator starts at 0).
using TimePoint = CoreClock::time_point;

// Builds a TimePoint from nanoseconds since the driver's epoch.
constexpr TimePoint time_from_ns(std::int64_t ns) { return TimePoint(Duration(ns)); }
// Nanoseconds since the driver's epoch.
constexpr std::int64_t ns_since_epoch(TimePoint t) { return t.time_since_epoch().count(); }
// Microseconds since the driver's epoch (UDT timestamps, RTT fields).
constexpr std::int64_t us_since_epoch(TimePoint t) {
  return std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
}

}  // namespace ncgw::transport
