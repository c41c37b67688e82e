// The `fudp` object of a peer in the status document, and its lines in `ncgw status`.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "gateway/fudp/cfs.h"

namespace ncgw::gateway {

// {"period_ms", "shape", report figures, table counters, "flows": [every flow, highest offered
// rate first: key fields, class, rate_bps, passed_bps, allocation_bps (null: unshaped), ...]}.
nlohmann::json fudp_status(const fudp::Cfs& cfs);

// Readable lines of a peer's `fudp` object: the summary and the `top` flows by rate.
std::string render_fudp_table(const nlohmann::json& fudp, std::size_t top = 10);

}  // namespace ncgw::gateway
