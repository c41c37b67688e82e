// IPv4/IPv6 address and prefix values: parsing and formatting through inet_pton/inet_ntop.
#include "config/prefix.h"

#include <arpa/inet.h>

#include <cstring>

namespace ncgw::config {
namespace {

// Bits in an address of this family.
int family_bits(const IpAddress& a) { return a.v6 ? 128 : 32; }

// Parses a prefix length: 1 to 3 decimal digits, at most `max`.
std::optional<std::uint8_t> parse_length(std::string_view text, int max) {
  if (text.empty() || text.size() > 3) return std::nullopt;
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value > max) return std::nullopt;
  return static_cast<std::uint8_t>(value);
}

}  // namespace

std::optional<IpAddress> parse_ip(std::string_view text) {
  if (text.empty() || text.size() > 45) return std::nullopt;  // INET6_ADDRSTRLEN - 1
  const std::string copy(text);                               // inet_pton needs a C string
  IpAddress a;
  if (copy.find(':') == std::string::npos) {
    if (inet_pton(AF_INET, copy.c_str(), a.bytes.data()) != 1) return std::nullopt;
    return a;
  }
  a.v6 = true;
  if (inet_pton(AF_INET6, copy.c_str(), a.bytes.data()) != 1) return std::nullopt;
  return a;
}

std::optional<Prefix> parse_prefix(std::string_view text) {
  const auto slash = text.find('/');
  const auto address = parse_ip(text.substr(0, slash));
  if (!address) return std::nullopt;
  Prefix p{*address, static_cast<std::uint8_t>(family_bits(*address))};
  if (slash == std::string_view::npos) return p;
  const auto length = parse_length(text.substr(slash + 1), family_bits(*address));
  if (!length) return std::nullopt;
  p.length = *length;
  return p;
}

std::string to_string(const IpAddress& a) {
  char buffer[INET6_ADDRSTRLEN] = {};
  inet_ntop(a.v6 ? AF_INET6 : AF_INET, a.bytes.data(), buffer, sizeof buffer);
  return buffer;
}

std::string to_string(const Prefix& p) {
  return to_string(p.address) + "/" + std::to_string(p.length);
}

bool contains(const Prefix& p, const IpAddress& addr) {
  if (p.address.v6 != addr.v6) return false;
  return network_of(p) == network_of(Prefix{addr, p.length});
}

Prefix network_of(const Prefix& p) {
  Prefix out = p;
  const int bits = family_bits(p.address);
  const int length = p.length > bits ? bits : p.length;
  for (int i = 0; i < 16; ++i) {
    const int keep = length - i * 8;  // bits of byte i inside the prefix
    if (keep >= 8) continue;
    out.address.bytes[i] = keep <= 0 ? 0 : static_cast<std::uint8_t>(out.address.bytes[i] & (0xFF << (8 - keep)));
  }
  return out;
}

}  // namespace ncgw::config
