#include "gateway/route_table.h"

#include <algorithm>

namespace ncgw::gateway {

void RouteTable::add(const config::Prefix& prefix, std::size_t peer_index) {
  const config::Prefix net = config::network_of(prefix);
  for (auto& e : entries_) {
    if (e.prefix == net) {
      e.peer_index = peer_index;
      return;
    }
  }
  entries_.push_back({net, peer_index});
  std::stable_sort(entries_.begin(), entries_.end(),
                   [](const Entry& a, const Entry& b) { return a.prefix.length > b.prefix.length; });
}

std::optional<std::size_t> RouteTable::lookup(const transport::IpAddress& destination) const {
  for (const auto& e : entries_) {
    if (config::contains(e.prefix, destination)) return e.peer_index;
  }
  return std::nullopt;
}

}  // namespace ncgw::gateway
