// Longest-prefix-match table from remote prefixes to peers, read once per packet from the TUN.
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include "config/prefix.h"

namespace ncgw::gateway {

// Maps destination addresses to peer indexes by longest prefix match (IPv4 and IPv6).
class RouteTable {
 public:
  // Adds prefix -> peer; a later add of the same prefix replaces the earlier one.
  void add(const config::Prefix& prefix, std::size_t peer_index);
  // The peer of the longest prefix containing `destination`, if any.
  std::optional<std::size_t> lookup(const transport::IpAddress& destination) const;
  // Number of routes.
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    config::Prefix prefix;
    std::size_t peer_index;
  };
  std::vector<Entry> entries_;  // sorted by prefix length, longest first
};

}  // namespace ncgw::gateway
