// Internal: parsing "10.0.0.2", "10.0.0.2:5501", "[fd00::2]:5501", "fd00::2" into address and port.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "config/prefix.h"

namespace ncgw::config::detail {

// A peer's underlay address with the port if one was written.
struct Endpoint {
  IpAddress host;
  std::optional<std::uint16_t> port;
};

// The endpoint, or the text of what was expected.
std::variant<Endpoint, std::string> parse_endpoint(std::string_view text);

// "10.0.0.2:5501" or "[fd00::2]:5501".
std::string format_endpoint(const IpAddress& host, std::uint16_t port);

}  // namespace ncgw::config::detail
