// libFuzzer entry: the connected path of the UDT tunnel core. Two UdtTunnelCores (caller A,
// listener B) connect in memory; the input is a sequence of datagrams ([u16 big-endian length]
// [bytes]) given to B as if from A, each with its destination socket id set to B's connection so
// it reaches the connected connection rather than the listener, while A keeps sending. Then
// liveness: whatever the input did (a forged shutdown may end the connection: UDT4 has no
// authentication, the secure layer above it does), A and B deliver again within 30 s.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "tests/fuzz/common/core_pair.h"
#include "transports/common/byte_order.h"
#include "transports/udt/udt_tunnel_core.h"
#include "transports/udt/wire.h"

namespace {

using namespace ncgw;
using namespace ncgw::udt;

// Offset of the destination socket id in the UDT header (its fourth 32-bit word).
constexpr std::size_t kOffDstSocket = 12;

UdtTunnelSettings side(TunnelRole role, const PeerAddress& peer, std::uint64_t seed) {
  UdtTunnelSettings t = default_tunnel_settings();
  t.role = role;
  t.peer = peer;
  t.seed = seed;
  t.conn.send_buffer_packets = t.conn.recv_buffer_packets = 64;
  t.conn.flight_flag_size = 64;
  return t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  UdtTunnelCore a(side(TunnelRole::caller, PeerAddress::v4(10, 0, 0, 2, 9000), 1));
  UdtTunnelCore b(side(TunnelRole::listener, PeerAddress::v4(10, 0, 0, 1, 9000), 2));
  fuzz::CorePair pair(a, b);
  if (!pair.fresh_exchange_delivers(std::chrono::seconds(5))) std::abort();   // the pair works at all
  std::vector<std::uint8_t> scratch;
  const std::vector<std::uint8_t> ip(100, 0x45);
  fuzz::for_each_datagram(data, size, scratch, [&](std::vector<std::uint8_t>& dgram) {
    if (dgram.size() >= wire::kHeaderSize && b.connection()) {
      transport::put_be32(dgram.data() + kOffDstSocket, static_cast<std::uint32_t>(b.connection()->self_id()));
    }
    b.on_datagram(dgram, pair.now());
    (void)a.send(ip, pair.now());
    pair.exchange();
    pair.drain_b();
    pair.advance(std::chrono::milliseconds(1));
  });
  if (!pair.fresh_exchange_delivers(std::chrono::seconds(30))) __builtin_trap();
  return 0;
}
