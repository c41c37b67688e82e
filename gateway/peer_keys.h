// The keys of the gateway's secured peers, read from the files and values the config names.
#pragma once
#include <optional>
#include <vector>

#include "config/config.h"
#include "crypto/primitives.h"

namespace ncgw::gateway {

// What a secured peer's core needs beyond its config.
struct PeerKeys {
  crypto::Key local_private{};
  crypto::Key remote_public{};
  crypto::Key psk{};              // all zero: none configured
};

// Keys for every peer of `gw`, index-aligned with gw.peers (nothing for `security: none`). Reads
// gateway.private_key_file and each preshared_key_file (mode-checked); throws std::runtime_error.
std::vector<std::optional<PeerKeys>> load_peer_keys(const config::GatewayConfig& gw);

}  // namespace ncgw::gateway
