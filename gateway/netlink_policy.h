// Internal and external interfaces (paper 002 section 2.2, docs/cascade.md): with
// gateway.internal_interfaces set, the tunnel routes go into their own routing table and FIB rules
// send only packets that arrive on an internal interface, or that this host originates, to it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.h"

namespace ncgw::gateway {

// The tunnel routes in table `cfg.route_table` and the rules "iif X lookup table" (one per internal
// interface and "lo", per address family in use) at `cfg.rule_priority`; close() removes them.
class PolicyRouting {
 public:
  // Remembers the TUN device; adds nothing yet. Logs a warning for internal interfaces that do
  // not exist now (the kernel matches rules by name, so they apply once the interface appears).
  PolicyRouting(const config::GatewayConfig& cfg, int tun_ifindex);
  ~PolicyRouting();
  PolicyRouting(const PolicyRouting&) = delete;
  PolicyRouting& operator=(const PolicyRouting&) = delete;

  // Adds the route to `prefix` through the TUN into the table, and the family's rules the first
  // time a prefix of that family is added. Throws std::system_error on failure.
  void add_route(const config::Prefix& prefix);
  // Removes the rules, then the routes (rules first: no window in which the table is consulted
  // without its routes). Idempotent; never throws.
  void close();

 private:
  // Adds the rules of `family` (AF_INET or AF_INET6) unless already added.
  void add_rules(int family);

  int tun_ifindex_;
  std::uint32_t table_;
  std::uint32_t priority_;
  std::vector<std::string> interfaces_;   // internal interfaces, then "lo"
  std::vector<int> families_;             // families whose rules are installed
  std::vector<config::Prefix> routes_;    // routes installed in the table
};

}  // namespace ncgw::gateway
