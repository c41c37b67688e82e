#include "gateway/peer_keys.h"

#include "gateway/key_file.h"

namespace ncgw::gateway {

std::vector<std::optional<PeerKeys>> load_peer_keys(const config::GatewayConfig& gw) {
  std::vector<std::optional<PeerKeys>> out(gw.peers.size());
  std::optional<crypto::Key> local;
  for (std::size_t i = 0; i < gw.peers.size(); ++i) {
    const config::Peer& p = gw.peers[i];
    if (p.security == config::Security::none) continue;
    if (!local) local = read_key_file(gw.private_key_file, true);
    PeerKeys k;
    k.local_private = *local;
    k.remote_public = parse_key(p.public_key, "peer " + p.name + " public_key");
    if (!p.preshared_key_file.empty()) k.psk = read_key_file(p.preshared_key_file, true);
    out[i] = k;
  }
  if (local) crypto::wipe(*local);
  return out;
}

}  // namespace ncgw::gateway
