// rtnetlink requests the daemon needs (link up and MTU, addresses, routes, FIB rules), through libmnl.
// The daemon never shells out to `ip`.
#pragma once
#include <cstdint>
#include <string>

#include "config/prefix.h"

struct mnl_socket;  // libmnl

namespace ncgw::gateway {

// A short-lived NETLINK_ROUTE socket that sends one request at a time and waits for its ACK.
class Netlink {
 public:
  // Opens and binds the socket; throws std::system_error on failure.
  Netlink();
  ~Netlink();
  Netlink(const Netlink&) = delete;
  Netlink& operator=(const Netlink&) = delete;

  // Sets the link's MTU and brings it up.
  void set_link_up(int ifindex, std::uint32_t mtu);
  // Adds an address with its prefix length to the link (an existing one is accepted).
  void add_address(int ifindex, const config::Prefix& address);
  // Adds (replaces) a route to `prefix` through the link, in routing table `table` (main: 254).
  void add_route(int ifindex, const config::Prefix& prefix, std::uint32_t table = kMainTable);
  // Deletes that route; returns false if it was not there.
  bool delete_route(int ifindex, const config::Prefix& prefix, std::uint32_t table = kMainTable);
  // Adds the FIB rule "from all iif `iif` lookup `table`" at `priority` for the family (AF_INET or
  // AF_INET6); an identical rule already present is accepted. Returns false if it was present.
  bool add_rule(int family, const std::string& iif, std::uint32_t table, std::uint32_t priority);
  // Deletes that rule; returns false if it was not there.
  bool delete_rule(int family, const std::string& iif, std::uint32_t table, std::uint32_t priority);

  static constexpr std::uint32_t kMainTable = 254;  // RT_TABLE_MAIN

 private:
  // Sends the message in buf_ and reads the kernel's answer; returns the errno it carried (0 = ok).
  int transact(void* nlh);
  // Builds and sends an RTM_NEWROUTE/RTM_DELROUTE; returns the kernel's errno.
  int route_request(int ifindex, const config::Prefix& prefix, std::uint32_t table, std::uint16_t type,
                    std::uint16_t flags);
  // Builds and sends an RTM_NEWRULE/RTM_DELRULE; returns the kernel's errno.
  int rule_request(int family, const std::string& iif, std::uint32_t table, std::uint32_t priority,
                   std::uint16_t type, std::uint16_t flags);

  ::mnl_socket* socket_ = nullptr;
  std::uint32_t seq_ = 0;
  std::uint32_t port_id_ = 0;
};

}  // namespace ncgw::gateway
