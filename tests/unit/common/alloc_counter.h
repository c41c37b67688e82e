// Allocation counting for the hot-path tests: alloc_counter.cc replaces the global operator new
// (link it into exactly one test executable each); while g_counting is set every allocation adds
// one to g_allocations.
#pragma once
#include <atomic>
#include <cstdint>

namespace ncgw::testing {

extern std::atomic<bool> g_counting;             // count allocations while true
extern std::atomic<std::uint64_t> g_allocations;  // allocations counted so far

}  // namespace ncgw::testing

using ncgw::testing::g_allocations;
using ncgw::testing::g_counting;
