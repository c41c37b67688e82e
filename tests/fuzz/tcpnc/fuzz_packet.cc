// libFuzzer target for the TCP/NC datagram parsers and the core's datagram path. Input: a sequence
// of datagrams, each [u16 big-endian length][bytes]. Every parse that succeeds must re-encode to
// a frame that parses to the same values; then the datagrams go through an established TcpncCore
// (session ids patched in so the fuzzer reaches the data and ACK paths), draining its output.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "transports/common/byte_order.h"
#include "transports/tcpnc/packet.h"
#include "transports/tcpnc/tcpnc_core.h"

namespace {

using namespace ncgw;
using namespace ncgw::tcpnc;

constexpr std::uint32_t kPeer = 0x1234;

// Aborts if a parsed ACK does not survive write + parse unchanged.
void check_ack_round_trip(const AckFrame& a) {
  std::vector<std::uint8_t> out(kMaxAckSize + 64);
  const std::size_t n = write_ack(out, {PacketType::kAck, 1, 2}, a);
  if (n == 0) std::abort();  // every parsed ACK is writable
  const auto b = parse_ack(std::span(out).first(n));
  if (!b || b->seen != a.seen || b->largest != a.largest || b->range_count != a.range_count ||
      b->cw_count != a.cw_count)
    std::abort();
  for (std::size_t i = 0; i < a.range_count; ++i)
    if (b->ranges[i].smallest != a.ranges[i].smallest || b->ranges[i].largest != a.ranges[i].largest) std::abort();
}

// Parses one datagram with every parser.
void parse_all(std::span<const std::uint8_t> d) {
  const auto h = parse_common(d);
  if (!h) return;
  std::span<const std::uint8_t> coded;
  if (h->type == PacketType::kData) (void)parse_data(d, coded);
  if (h->type == PacketType::kAck)
    if (const auto a = parse_ack(d)) check_ack_round_trip(*a);
  if (h->type == PacketType::kHello || h->type == PacketType::kHelloAck) (void)parse_hello(d);
  if (h->type == PacketType::kDataAck) {
    const auto parts = split_data_ack(d);
    if (!parts) return;
    if (parts->data.size() + parts->ack_body.size() + kAckTrailerSize != d.size()) std::abort();
    (void)parse_data(parts->data, coded);
    if (const auto a = parse_ack_body(parts->ack_body)) check_ack_round_trip(*a);
  }
}

// A small core established with peer session kPeer.
TcpncCore make_core() {
  TcpncCoreSettings s;
  s.cwnd_max_packets = 16;
  s.n_max = 8;
  s.k_max = 4;
  TcpncCore core(s, 42);
  std::vector<std::uint8_t> hello(kHelloSize);
  Hello body;
  body.max_packet = 1400;
  body.max_n = 8;
  body.max_open = 8;
  write_hello(hello, {PacketType::kHello, kPeer, 0}, body);
  core.on_datagram(hello, transport::time_from_ns(0));
  return core;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  TcpncCore core = make_core();
  std::vector<std::uint8_t> out(2048), dgram;
  std::int64_t t = 1'000'000;
  std::vector<std::uint8_t> pkt(200, 7);
  while (size >= 2) {
    const std::size_t len = std::min<std::size_t>(transport::get_be16(data), size - 2);
    dgram.assign(data + 2, data + 2 + len);
    data += 2 + len;
    size -= 2 + len;
    parse_all(dgram);
    if (dgram.size() >= kCommonHeaderSize && dgram[kOffType] != static_cast<std::uint8_t>(PacketType::kHello)) {
      transport::put_be32(dgram.data() + kOffSrcSession, kPeer);
      transport::put_be32(dgram.data() + kOffDstSession, core.session_id());
    }
    const auto now = transport::time_from_ns(t += 1'000'000);
    (void)core.send(pkt, now);
    core.on_datagram(dgram, now);
    core.on_timeout(now);
    while (core.poll_transmit(out, now)) {}
    while (core.poll_deliver(out)) {}
  }
  return 0;
}
