// libFuzzer target for what the gateway does with an IP packet a peer delivered (bytes that came
// over the network, authenticated but not trusted): the forwarder's routing and hop-limit
// decrement, and the ICMP errors built about the packet (Time Exceeded on expiry, Packet Too Big).
// Input: [u16 big-endian MTU][packet]. Every answer must fit the answer buffer, be an ICMP error
// from the gateway's address of the packet's family, and carry a valid IPv4 header checksum.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "gateway/forwarder.h"
#include "gateway/icmp.h"
#include "gateway/route_table.h"

namespace {

using namespace ncgw;
using namespace ncgw::gateway;

// Aborts unless `a` is a well-formed ICMP error answer (or empty).
void check_answer(std::span<const std::uint8_t> a) {
  if (a.empty()) return;
  if (a.size() > kMaxIcmpAnswer) std::abort();
  const unsigned version = a[0] >> 4;
  if (version == 4) {
    if (a.size() < 28 || a[9] != 1 || checksum_finish(checksum_add(0, a.first(20))) != 0) std::abort();
    if (checksum_finish(checksum_add(0, a.subspan(20))) != 0) std::abort();
  } else if (version == 6) {
    if (a.size() < 48 || a[6] != 58) std::abort();
  } else {
    std::abort();
  }
}

struct Setup {
  Setup() {
    routes.add(*config::parse_prefix("10.1.0.0/24"), 0);
    routes.add(*config::parse_prefix("10.3.0.0/24"), 1);
    routes.add(*config::parse_prefix("fd00:3::/64"), 1);
  }
  RouteTable routes;
  std::vector<config::Prefix> tun{*config::parse_prefix("10.99.0.2/24"), *config::parse_prefix("fd99::2/64")};
  Forwarder fwd{routes, tun};
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Setup s;
  if (size < 2) return 0;
  const std::size_t mtu = (std::size_t{data[0]} << 8) | data[1];
  std::vector<std::uint8_t> packet(data + 2, data + size);
  const auto routed = s.fwd.route_delivery(packet);   // may decrement the hop limit in place
  if (routed.action == ForwardAction::answer_tun || routed.action == ForwardAction::answer_peer) check_answer(s.fwd.answer());
  const auto big = s.fwd.too_big(std::vector<std::uint8_t>(data + 2, data + size), mtu);
  if (big.action == ForwardAction::answer_tun || big.action == ForwardAction::answer_peer) check_answer(s.fwd.answer());
  return 0;
}
