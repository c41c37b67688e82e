// Endpoint text <-> address and port.
#include "config/endpoint.h"

#include "config/scalars.h"

namespace ncgw::config::detail {
namespace {

constexpr std::string_view kExpected =
    "expected an IP address with an optional port (10.0.0.2, 10.0.0.2:5501, [fd00::2]:5501)";

// Splits "[v6]:port", "[v6]", "v4:port", "v4" or a bare v6 literal into host and port text.
bool split(std::string_view text, std::string_view& host, std::optional<std::string_view>& port) {
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos) return false;
    host = text.substr(1, close - 1);
    const std::string_view rest = text.substr(close + 1);
    if (rest.empty()) return true;
    if (rest.front() != ':') return false;
    port = rest.substr(1);
    return true;
  }
  const auto first = text.find(':');
  if (first != std::string_view::npos && text.find(':', first + 1) == std::string_view::npos) {
    host = text.substr(0, first);  // exactly one colon: IPv4 with port
    port = text.substr(first + 1);
    return true;
  }
  host = text;  // IPv4 without port, or a bare IPv6 literal
  return true;
}

}  // namespace

std::variant<Endpoint, std::string> parse_endpoint(std::string_view text) {
  const std::string got = ", got '" + std::string(text) + "'";
  std::string_view host_text;
  std::optional<std::string_view> port_text;
  if (!split(text, host_text, port_text)) return std::string(kExpected) + got;
  const auto host = parse_ip(host_text);
  if (!host) return std::string(kExpected) + got;
  if (text.front() == '[' && !host->v6) return std::string(kExpected) + got;
  Endpoint e{*host, std::nullopt};
  if (!port_text) return e;
  const auto port = parse_decimal(*port_text);
  if (!port || *port < 1 || *port > 65535) {
    return "expected a port in 1..65535 after the address, got '" + std::string(*port_text) + "'";
  }
  e.port = static_cast<std::uint16_t>(*port);
  return e;
}

std::string format_endpoint(const IpAddress& host, std::uint16_t port) {
  const std::string h = to_string(host);
  return (host.v6 ? "[" + h + "]" : h) + ":" + std::to_string(port);
}

}  // namespace ncgw::config::detail
