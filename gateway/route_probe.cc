#include "gateway/route_probe.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

namespace ncgw::gateway {
namespace {

// A UDP socket connected to `peer` (nothing is sent), or -1.
int connected_socket(const UnderlayEndpoint& peer) {
  const int fd = ::socket(peer.v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_storage ss{};
  socklen_t len = 0;
  if (peer.v6) {
    auto* a = reinterpret_cast<sockaddr_in6*>(&ss);
    a->sin6_family = AF_INET6;
    a->sin6_port = htons(peer.port);
    std::memcpy(&a->sin6_addr, peer.bytes.data(), 16);
    len = sizeof(*a);
  } else {
    auto* a = reinterpret_cast<sockaddr_in*>(&ss);
    a->sin_family = AF_INET;
    a->sin_port = htons(peer.port);
    std::memcpy(&a->sin_addr, peer.bytes.data(), 4);
    len = sizeof(*a);
  }
  if (::connect(fd, reinterpret_cast<sockaddr*>(&ss), len) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

std::optional<UnderlayEndpoint> routed_source(const UnderlayEndpoint& peer, std::uint16_t port) {
  const int fd = connected_socket(peer);
  if (fd < 0) return std::nullopt;
  std::optional<UnderlayEndpoint> out;
  sockaddr_storage me{};
  socklen_t me_len = sizeof(me);
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&me), &me_len) == 0) {
    UnderlayEndpoint e;
    e.v6 = peer.v6;
    e.port = port;
    if (peer.v6) std::memcpy(e.bytes.data(), &reinterpret_cast<sockaddr_in6*>(&me)->sin6_addr, 16);
    else std::memcpy(e.bytes.data(), &reinterpret_cast<sockaddr_in*>(&me)->sin_addr, 4);
    out = e;
  }
  ::close(fd);
  return out;
}

std::optional<std::uint32_t> route_mtu(const UnderlayEndpoint& peer) {
  const int fd = connected_socket(peer);
  if (fd < 0) return std::nullopt;
  int mtu = 0;
  socklen_t len = sizeof(mtu);
  const int rc = peer.v6 ? ::getsockopt(fd, IPPROTO_IPV6, IPV6_MTU, &mtu, &len)
                         : ::getsockopt(fd, IPPROTO_IP, IP_MTU, &mtu, &len);
  ::close(fd);
  if (rc != 0 || mtu <= 0) return std::nullopt;
  return static_cast<std::uint32_t>(mtu);
}

}  // namespace ncgw::gateway
