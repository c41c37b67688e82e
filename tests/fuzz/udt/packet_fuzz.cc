// libFuzzer entry: the UDT packet parser and every content parser, then the whole receive path of
// a connected endpoint (a datagram addressed to it), so malformed input cannot crash the core.
#include <cstddef>
#include <cstdint>
#include <span>

#include "transports/udt/endpoint.h"
#include "transports/udt/packet.h"

using namespace ncgw::udt;

namespace {

// A listener endpoint and a connected pair made once, reused across inputs.
struct World {
  Endpoint listener{1};
  PeerAddress from = PeerAddress::v4(10, 0, 0, 1, 9);
  World() {
    ConnectionSettings s;
    s.send_buffer_packets = s.recv_buffer_packets = 64;
    listener.listen(s);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static World w;
  const std::span<const std::uint8_t> bytes(data, size);
  if (const auto p = parse_packet(bytes)) {
    if (p->control) {
      (void)parse_handshake(p->payload);
      (void)parse_ack(p->payload);
      (void)parse_drop_request(*p);
      (void)for_each_nak_range(p->payload, [](std::int32_t a, std::int32_t b) { return a <= b || true; });
    }
  }
  const auto now = ncgw::transport::time_from_ns(1'000'000'000);
  w.listener.on_datagram(bytes, w.from, now);
  std::uint8_t out[2048];
  for (int i = 0; i < 8 && w.listener.poll_transmit(out, now); ++i) {
  }
  w.listener.on_timeout(now);
  return 0;
}
