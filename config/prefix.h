// IPv4/IPv6 addresses and prefixes as plain values (no OS calls), parsed from "10.0.0.0/24".
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "transports/common/ip_address.h"

namespace ncgw::config {

// An IP address: the shared value type (IPv4 in the first 4 bytes of `bytes`).
using IpAddress = transport::IpAddress;

// An address with a prefix length, e.g. 10.1.0.0/16 or fd00::1/64.
struct Prefix {
  IpAddress address;
  std::uint8_t length = 0;
  friend bool operator==(const Prefix&, const Prefix&) = default;
};

// Parses an IPv4 or IPv6 literal; nothing on error.
std::optional<IpAddress> parse_ip(std::string_view text);
// Parses "addr/len"; a bare address gets /32 or /128. Nothing on error.
std::optional<Prefix> parse_prefix(std::string_view text);
// Formats an address as its canonical text.
std::string to_string(const IpAddress& a);
// Formats "addr/len".
std::string to_string(const Prefix& p);
// True if `addr` lies inside `p` (same family, first p.length bits equal).
bool contains(const Prefix& p, const IpAddress& addr);
// The prefix with host bits cleared.
Prefix network_of(const Prefix& p);

}  // namespace ncgw::config
