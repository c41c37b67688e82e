// AF_PACKET ports of linkem.
#include "netns-scenarios/linkem/packet_io.h"

#include <arpa/inet.h>
#include <linux/ethtool.h>
#include <linux/if_packet.h>
#include <linux/sockios.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace linkem {
namespace {

// Throws a runtime_error carrying errno's text.
[[noreturn]] void fail(const std::string& what) {
  throw std::runtime_error(what + ": " + std::strerror(errno));
}

// Sets one ethtool boolean feature through the legacy ioctl; false on failure.
bool set_feature(int fd, const std::string& ifname, std::uint32_t cmd, std::uint32_t value) {
  ethtool_value ev{};
  ev.cmd = cmd;
  ev.data = value;
  ifreq ifr{};
  std::strncpy(ifr.ifr_name, ifname.c_str(), IFNAMSIZ - 1);
  ifr.ifr_data = reinterpret_cast<char*>(&ev);
  return ioctl(fd, SIOCETHTOOL, &ifr) == 0;
}

// Reads the interface MTU.
std::uint32_t read_mtu(int fd, const std::string& ifname) {
  ifreq ifr{};
  std::strncpy(ifr.ifr_name, ifname.c_str(), IFNAMSIZ - 1);
  if (ioctl(fd, SIOCGIFMTU, &ifr) != 0) fail("SIOCGIFMTU " + ifname);
  return static_cast<std::uint32_t>(ifr.ifr_mtu);
}

// Sets an integer socket option, forcing past rmem_max/wmem_max when allowed.
void set_buffer(int fd, int force_opt, int opt, int bytes) {
  if (setsockopt(fd, SOL_SOCKET, force_opt, &bytes, sizeof bytes) != 0)
    setsockopt(fd, SOL_SOCKET, opt, &bytes, sizeof bytes);
}

}  // namespace

std::string prepare_interface(const std::string& ifname) {
  std::string warn;
  {
    std::ofstream f("/proc/sys/net/ipv6/conf/" + ifname + "/disable_ipv6");
    if (f) f << "1\n";
    if (!f) warn += "cannot disable IPv6 on " + ifname + "; ";
  }
  int fd = socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) return warn + "no socket for ethtool";
  if (!set_feature(fd, ifname, ETHTOOL_SGRO, 0)) warn += "GRO off failed on " + ifname + "; ";
  set_feature(fd, ifname, ETHTOOL_SGSO, 0);
  set_feature(fd, ifname, ETHTOOL_STSO, 0);
  close(fd);
  return warn;
}

Port open_port(const std::string& ifname) {
  Port p;
  p.name = ifname;
  p.ifindex = static_cast<int>(if_nametoindex(ifname.c_str()));
  if (p.ifindex == 0) fail("no interface " + ifname);
  p.fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
  if (p.fd < 0) fail("AF_PACKET socket");
  int one = 1;
  if (setsockopt(p.fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof one) != 0)
    fail("PACKET_IGNORE_OUTGOING");
  setsockopt(p.fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof one);
  set_buffer(p.fd, SO_RCVBUFFORCE, SO_RCVBUF, 16 << 20);
  set_buffer(p.fd, SO_SNDBUFFORCE, SO_SNDBUF, 16 << 20);
  sockaddr_ll sll{};
  sll.sll_family = AF_PACKET;
  sll.sll_protocol = htons(ETH_P_ALL);
  sll.sll_ifindex = p.ifindex;
  if (bind(p.fd, reinterpret_cast<sockaddr*>(&sll), sizeof sll) != 0) fail("bind " + ifname);
  packet_mreq mr{};
  mr.mr_ifindex = p.ifindex;
  mr.mr_type = PACKET_MR_PROMISC;
  if (setsockopt(p.fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof mr) != 0)
    fail("promiscuous " + ifname);
  p.mtu = read_mtu(p.fd, ifname);
  return p;
}

void close_port(Port& p) {
  if (p.fd >= 0) close(p.fd);
  p.fd = -1;
}

}  // namespace linkem
