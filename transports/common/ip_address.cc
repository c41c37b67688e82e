#include "transports/common/ip_address.h"

#include <arpa/inet.h>

namespace ncgw::transport {

bool IpEndpoint::parse(const std::string& text, IpEndpoint& out) {
  out = IpEndpoint{};
  std::string host;
  std::string port;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':') return false;
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
    out.v6 = true;
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos) return false;
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  if (port.empty() || port.size() > 5) return false;
  unsigned long p = 0;
  for (char c : port) {
    if (c < '0' || c > '9') return false;
    p = p * 10 + static_cast<unsigned long>(c - '0');
  }
  if (p > 65535) return false;
  out.port = static_cast<std::uint16_t>(p);
  return inet_pton(out.v6 ? AF_INET6 : AF_INET, host.c_str(), out.bytes.data()) == 1;
}

std::string IpEndpoint::to_string() const {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(v6 ? AF_INET6 : AF_INET, bytes.data(), buf, sizeof buf);
  return v6 ? "[" + std::string(buf) + "]:" + std::to_string(port) : std::string(buf) + ":" + std::to_string(port);
}

}  // namespace ncgw::transport
