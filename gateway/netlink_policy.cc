#include "gateway/netlink_policy.h"

#include <net/if.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <algorithm>

#include "gateway/netlink.h"

namespace ncgw::gateway {

PolicyRouting::PolicyRouting(const config::GatewayConfig& cfg, int tun_ifindex)
    : tun_ifindex_(tun_ifindex), table_(cfg.route_table), priority_(cfg.rule_priority),
      interfaces_(cfg.internal_interfaces) {
  for (const auto& name : interfaces_) {
    if (if_nametoindex(name.c_str()) == 0) {
      spdlog::warn("internal interface {} does not exist (yet); its rule applies once it appears", name);
    }
  }
  interfaces_.push_back("lo");  // "iif lo" matches what this host originates (ip-rule(8))
}

PolicyRouting::~PolicyRouting() { close(); }

void PolicyRouting::add_rules(int family) {
  if (std::find(families_.begin(), families_.end(), family) != families_.end()) return;
  Netlink nl;
  families_.push_back(family);  // before adding: close() removes what was added if a later one fails
  for (const auto& iif : interfaces_) {
    if (!nl.add_rule(family, iif, table_, priority_)) {
      spdlog::warn("rule iif {} lookup {} pref {} was already present (left by an earlier run?)", iif,
                   table_, priority_);
    }
  }
}

void PolicyRouting::add_route(const config::Prefix& prefix) {
  add_rules(prefix.address.v6 ? AF_INET6 : AF_INET);
  Netlink().add_route(tun_ifindex_, prefix, table_);
  routes_.push_back(prefix);
}

void PolicyRouting::close() {
  try {
    Netlink nl;
    for (int family : families_) {
      for (const auto& iif : interfaces_) nl.delete_rule(family, iif, table_, priority_);
    }
    for (const auto& r : routes_) nl.delete_route(tun_ifindex_, r, table_);
  } catch (const std::exception& e) {
    spdlog::error("removing policy routes of table {}: {}", table_, e.what());
  }
  families_.clear();
  routes_.clear();
}

}  // namespace ncgw::gateway
