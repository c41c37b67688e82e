// AF_PACKET ports of linkem: one raw packet socket per interface, with the interface prepared
// for forwarding through a packet socket (no IPv6 chatter, GRO off, promiscuous, own frames
// ignored). See docs/traps.md.
#pragma once
#include <cstdint>
#include <string>

namespace linkem {

// One interface opened for raw frame I/O.
struct Port {
  std::string name;
  int ifindex = 0;
  int fd = -1;
  std::uint32_t mtu = 1500;
};

// Disables IPv6 on `ifname` (sysctl of the current namespace) and turns GRO, LRO and GSO off;
// returns an empty string or a warning (not fatal: the interface may lack the feature).
std::string prepare_interface(const std::string& ifname);

// Opens a non-blocking AF_PACKET/SOCK_RAW socket bound to `ifname` with PACKET_IGNORE_OUTGOING,
// promiscuous membership and large buffers. Throws std::runtime_error on failure.
Port open_port(const std::string& ifname);

// Closes the port's socket.
void close_port(Port& p);

}  // namespace linkem
