// FUDP settings of one common flow set (the `fudp:` block of the config, docs/fudp.md).
#pragma once
#include <cstdint>

namespace ncgw::fudp {

// Period, EWMA factors, table bounds and whether allocations are enforced.
struct Settings {
  std::uint32_t period_ms = 5000;        // control period (paper 003: 5 s)
  double alpha = 0.875;                  // eq. 1
  double beta = 0.25;                    // eq. 2
  std::uint32_t flow_table_size = 4096;  // most flows tracked at once
  std::uint32_t idle_timeout_ms = 30000; // a flow unseen this long is forgotten
  bool shape = true;                     // false: measure and allocate, never drop
};

}  // namespace ncgw::fudp
