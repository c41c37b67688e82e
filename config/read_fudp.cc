// Reader of a `fudp` block (top level or per peer; docs/fudp.md): keys over a base, bounds, and
// the period/timeout cross-check.
#include "config/scalars.h"
#include "config/sections.h"

namespace ncgw::config::detail {

FudpSettings read_fudp(const Node& block, const FudpSettings& base) {
  static constexpr std::array<std::string_view, 7> keys{"enabled", "shape", "period_ms", "alpha", "beta",
                                                        "flow_table_size", "idle_timeout_ms"};
  block.check_keys(keys);
  FudpSettings s = base;
  if (const auto n = block.find("enabled")) s.enabled = read_bool(*n);
  if (const auto n = block.find("shape")) s.shape = read_bool(*n);
  if (const auto n = block.find("period_ms")) s.period_ms = read_uint_as<std::uint32_t>(*n, 10, 3600000);
  if (const auto n = block.find("alpha")) s.alpha = read_real(*n, {0.0, true, 1.0, true});
  if (const auto n = block.find("beta")) s.beta = read_real(*n, {0.0, true, 1.0, true});
  if (const auto n = block.find("flow_table_size")) {
    s.flow_table_size = read_uint_as<std::uint32_t>(*n, 1, 1000000);
  }
  if (const auto n = block.find("idle_timeout_ms")) {
    s.idle_timeout_ms = read_uint_as<std::uint32_t>(*n, 10, 86400000);
  }
  if (s.idle_timeout_ms < s.period_ms) {
    const auto n = block.find("idle_timeout_ms");
    (n ? *n : block.find("period_ms") ? *block.find("period_ms") : block)
        .fail("idle_timeout_ms (" + std::to_string(s.idle_timeout_ms) + ") must be at least period_ms (" +
              std::to_string(s.period_ms) + "): a flow would be forgotten before it is measured");
  }
  return s;
}

}  // namespace ncgw::config::detail
