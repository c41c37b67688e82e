// libFuzzer target for the TCP/NC datagram parsers and the core's datagram path. Input: a sequence
// of datagrams, each [u16 big-endian length][bytes]. Every parse that succeeds must re-encode to
// a frame that parses to the same values; then the datagrams go to core B of an established pair
// (session ids patched in so the fuzzer reaches the data and ACK paths) while A keeps sending.
// Liveness: after any input, a fresh exchange between the two cores still delivers.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "tests/fuzz/common/core_pair.h"
#include "transports/common/byte_order.h"
#include "transports/tcpnc/packet.h"
#include "transports/tcpnc/tcpnc_core.h"

namespace {

using namespace ncgw;
using namespace ncgw::tcpnc;


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

// A small core.
TcpncCore make_core(std::uint64_t seed) {
  TcpncCoreSettings s;
  s.cwnd_max_packets = 16;
  s.n_max = 8;
  s.k_max = 4;
  return TcpncCore(s, seed);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  TcpncCore a = make_core(41);
  TcpncCore b = make_core(42);
  fuzz::CorePair pair(a, b);
  if (!pair.fresh_exchange_delivers(std::chrono::seconds(5))) std::abort();   // the pair works at all
  std::vector<std::uint8_t> scratch;
  const std::vector<std::uint8_t> pkt(200, 7);
  fuzz::for_each_datagram(data, size, scratch, [&](std::vector<std::uint8_t>& dgram) {
    parse_all(dgram);
    if (dgram.size() >= kCommonHeaderSize && peek_type(dgram) != PacketType::kHello) {
      transport::put_be32(dgram.data() + kOffSrcSession, a.session_id());
      transport::put_be32(dgram.data() + kOffDstSession, b.session_id());
    }
    (void)a.send(pkt, pair.now());
    b.on_datagram(dgram, pair.now());
    pair.exchange();
    pair.drain_b();
    pair.advance(std::chrono::milliseconds(1));
  });
  // Liveness: a foreign HELLO may reset B's session; the two agree on a new one and deliver again.
  if (!pair.fresh_exchange_delivers(std::chrono::seconds(30))) __builtin_trap();
  return 0;
}
