#include "gateway/core_factory.h"

#include <algorithm>

#include "config/loader.h"
#include "transports/plain/plain_core.h"

namespace ncgw::gateway {

namespace {

constexpr std::size_t kIpv4Header = 20;
constexpr std::size_t kIpv6Header = 40;
constexpr std::size_t kUdpHeader = 8;

// FNV-1a over the bytes of `text`.
std::uint32_t fnv1a(const std::string& text) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : text) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

std::unique_ptr<transport::Core> make_plain(const config::GatewayConfig& gw, const config::Peer& peer) {
  plain::PlainCoreSettings s;
  s.session_id = plain_session_id(gw.name, peer);
  s.max_datagram = underlay_max_datagram(gw, peer);
  return std::make_unique<plain::PlainCore>(s);
}

}  // namespace

std::size_t underlay_max_datagram(const config::GatewayConfig& gw, const config::Peer& peer) {
  const config::IpAddress host = *config::parse_ip(peer.endpoint_host);
  const std::size_t ip = host.v6 ? kIpv6Header : kIpv4Header;
  return gw.tun.underlay_mtu - ip - kUdpHeader;
}

std::uint32_t plain_session_id(const std::string& local_name, const config::Peer& peer) {
  if (peer.plain.session_id != 0) return peer.plain.session_id;
  const std::string& a = std::min(local_name, peer.name);
  const std::string& b = std::max(local_name, peer.name);
  return std::max<std::uint32_t>(1, fnv1a(a + "|" + b));
}

std::unique_ptr<transport::Core> make_core(const config::GatewayConfig& gw, const config::Peer& peer) {
  switch (peer.transport) {
    case config::TransportKind::plain: return make_plain(gw, peer);
    case config::TransportKind::tcpnc:
    case config::TransportKind::udt: break;
  }
  throw TransportUnavailable("peer '" + peer.name + "': transport '" +
                             std::string(config::to_string(peer.transport)) +
                             "' is not available in this build yet");
}

}  // namespace ncgw::gateway
