// Inner header compression: every packet comes back bit for bit, whatever the mix of flows and
// context collisions; a bulk TCP flow's headers shrink to a few bytes; a broken context is caught
// by its serial and heals at the next full header; malformed forms are dropped and counted.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "transports/common/byte_order.h"
#include "transports/common/inet_checksum.h"
#include "transports/tcpnc/header_compression.h"

namespace ncgw::tcpnc {
namespace {

using transport::put_be16;
using transport::put_be32;
using Bytes = std::vector<std::uint8_t>;

// Fields of one inner packet built by make_packet.
struct Spec {
  bool v6 = false;
  std::uint8_t protocol = 6;  // 6 TCP (with a timestamp option), 17 UDP, else header only
  std::uint8_t host = 1;      // varies the addresses
  std::uint16_t sport = 40000, dport = 80;
  std::uint16_t ip_id = 0;
  std::uint32_t seq = 0, ack = 0, ts_val = 0, ts_ecr = 0;
  std::size_t payload = 1300;
  std::uint8_t payload_seed = 0;
  std::uint16_t fragment = 0;  // IPv4 fragment offset field (flags and offset)
};

// An IPv4 or IPv6 packet with a valid IPv4 header checksum; TCP/UDP checksums are arbitrary bytes
// (the compressor carries them as they are).
Bytes make_packet(const Spec& s) {
  const std::size_t ip = s.v6 ? 40 : 20;
  const std::size_t l4 = s.protocol == 6 ? 32 : s.protocol == 17 ? 8 : 0;
  Bytes p(ip + l4 + s.payload);
  std::uint8_t* h = p.data();
  if (s.v6) {
    h[0] = 0x60;
    put_be16(h + 4, static_cast<std::uint16_t>(l4 + s.payload));
    h[6] = s.protocol;
    h[7] = 64;
    h[8] = 0xfd;
    h[23] = s.host;
    h[24] = 0xfd;
    h[39] = 2;
  } else {
    h[0] = 0x45;
    put_be16(h + 2, static_cast<std::uint16_t>(p.size()));
    put_be16(h + 4, s.ip_id);
    put_be16(h + 6, static_cast<std::uint16_t>(0x4000 | s.fragment));
    h[8] = 64;
    h[9] = s.protocol;
    h[12] = 10, h[13] = 0, h[14] = 1, h[15] = s.host;
    h[16] = 10, h[17] = 0, h[18] = 2, h[19] = 2;
  }
  std::uint8_t* t = h + ip;
  if (s.protocol == 6) {
    put_be16(t, s.sport);
    put_be16(t + 2, s.dport);
    put_be32(t + 4, s.seq);
    put_be32(t + 8, s.ack);
    t[12] = 0x80;  // data offset 8 words
    t[13] = 0x10;  // ACK
    put_be16(t + 14, 501);
    put_be16(t + 16, static_cast<std::uint16_t>(s.seq * 2654435761u >> 16));  // "checksum"
    t[20] = 1, t[21] = 1, t[22] = 8, t[23] = 10;
    put_be32(t + 24, s.ts_val);
    put_be32(t + 28, s.ts_ecr);
  } else if (s.protocol == 17) {
    put_be16(t, s.sport);
    put_be16(t + 2, s.dport);
    put_be16(t + 4, static_cast<std::uint16_t>(8 + s.payload));
    put_be16(t + 6, static_cast<std::uint16_t>(s.ip_id * 40503u));
  }
  for (std::size_t i = ip + l4; i < p.size(); ++i) p[i] = static_cast<std::uint8_t>(i * 31 + s.payload_seed);
  if (!s.v6) put_be16(h + 10, transport::checksum_finish(transport::checksum_add(0, {h, 20})));
  return p;
}

// A compressor and a decompressor joined by an in-order stream.
struct Stream {
  HeaderCompressor tx;
  HeaderDecompressor rx;
  Bytes form = Bytes(9100), out = Bytes(9100);

  // Compresses `p`; returns the form.
  std::span<const std::uint8_t> send(const Bytes& p) { return std::span(form).first(tx.compress(p, HeaderCompressor::context_for(p), form)); }
  // Sends `p` through; returns what came out (empty if dropped).
  Bytes pass(const Bytes& p) {
    const auto f = send(p);
    const auto n = rx.decompress(f, out);
    return n ? Bytes(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(*n)) : Bytes{};
  }
};

TEST(HeaderCompression, ABulkTcpFlowsHeadersShrinkToAFewBytesAndComeBackExact) {
  Stream s;
  Spec spec;
  std::size_t form_bytes = 0, packet_bytes = 0;
  for (int i = 0; i < 1000; ++i) {
    spec.ip_id = static_cast<std::uint16_t>(1000 + i);
    spec.seq = 5000 + static_cast<std::uint32_t>(i) * 1300;
    spec.ts_val = 777000 + static_cast<std::uint32_t>(i / 3);  // a millisecond clock, 3 packets a ms
    spec.ts_ecr = 123000 + static_cast<std::uint32_t>(i / 10);
    const Bytes p = make_packet(spec);
    const auto f = s.send(p);
    if (i > 0) { form_bytes += f.size(); packet_bytes += p.size(); }
    const auto n = s.rx.decompress(f, s.out);
    ASSERT_TRUE(n) << i;
    ASSERT_EQ(Bytes(s.out.begin(), s.out.begin() + static_cast<std::ptrdiff_t>(*n)), p) << i;
  }
  const double header_bytes = 52.0 - static_cast<double>(packet_bytes - form_bytes) / 999.0;
  std::printf("[hc] bulk TCP/IPv4: mean header %.2f bytes of 52 (%llu compressed, %llu full)\n", header_bytes,
              static_cast<unsigned long long>(s.tx.counters().compressed),
              static_cast<unsigned long long>(s.tx.counters().full));
  EXPECT_LT(header_bytes, 13.0);
  // A full header starts the context and refreshes it every kHcRefreshEvery compressed ones.
  EXPECT_EQ(s.tx.counters().full, 1 + 999 / (kHcRefreshEvery + 1));
  EXPECT_EQ(s.rx.counters().compressed, s.tx.counters().compressed);
  EXPECT_EQ(s.rx.counters().context_breaks, 0u);
}

// A form longer than the room given is not written and leaves no trace: the sender then
// compresses the same packet again into a larger buffer (to send it in pieces), and the stream
// stays exact. Room for one byte less than each form, then the exact size, for every kind.
TEST(HeaderCompression, AFormThatDoesNotFitIsNotWrittenAndChangesNothing) {
  Stream s;
  Spec tcp, udp;
  udp.protocol = 17;
  udp.sport = 5000;
  Bytes opaque(200, 0x00);  // version 0: not IP
  HeaderCompressor twin;  // fed the same packets: gives each form's size and bytes
  Bytes room(9100);
  for (int i = 0; i < 150; ++i) {
    tcp.seq = static_cast<std::uint32_t>(i) * 1300;
    tcp.ip_id = udp.ip_id = static_cast<std::uint16_t>(i);
    for (const Bytes& p : {make_packet(tcp), make_packet(udp), opaque}) {
      const std::uint8_t ctx = HeaderCompressor::context_for(p);
      const std::size_t size = twin.compress(p, ctx, room);
      ASSERT_GT(size, 0u);
      const HcCounters before = s.tx.counters();
      Bytes small(size - 1, 0xEE);
      ASSERT_EQ(s.tx.compress(p, ctx, small), 0u) << i;
      EXPECT_EQ(small, Bytes(size - 1, 0xEE)) << i;
      EXPECT_EQ(s.tx.counters().compressed, before.compressed);
      EXPECT_EQ(s.tx.counters().full, before.full);
      Bytes exact(size);
      ASSERT_EQ(s.tx.compress(p, ctx, exact), size) << i;
      EXPECT_EQ(exact, Bytes(room.begin(), room.begin() + static_cast<std::ptrdiff_t>(size))) << i;
      const auto n = s.rx.decompress(exact, s.out);
      ASSERT_TRUE(n) << i;
      ASSERT_EQ(Bytes(s.out.begin(), s.out.begin() + static_cast<std::ptrdiff_t>(*n)), p) << i;
    }
  }
  EXPECT_GT(s.tx.counters().compressed, 200u);
  EXPECT_EQ(s.rx.counters().context_breaks, 0u);
}

// Many flows of every kind in a seeded random order, more flows than contexts (so they collide).
TEST(HeaderCompression, EveryMixOfFlowsAndCollisionsComesBackBitForBit) {
  std::mt19937 rng(20261127);
  std::vector<Spec> flows;
  for (int f = 0; f < 600; ++f) {
    Spec s;
    s.v6 = f % 3 == 0;
    s.protocol = f % 5 == 0 ? 17 : f % 7 == 0 ? 1 : 6;
    s.host = static_cast<std::uint8_t>(f);
    s.sport = static_cast<std::uint16_t>(30000 + f);
    s.seq = rng();
    s.payload_seed = static_cast<std::uint8_t>(f);
    flows.push_back(s);
  }
  Stream s;
  for (int i = 0; i < 20000; ++i) {
    Spec& f = flows[rng() % (i < 10000 ? 8 : flows.size())];  // first few flows, then all of them
    f.ip_id = static_cast<std::uint16_t>(f.ip_id + 1 + (rng() % 8 == 0));
    f.seq += static_cast<std::uint32_t>(f.payload);
    f.ts_val += rng() % 2;
    f.payload = rng() % 4 == 0 ? rng() % 1400 : 1300;
    f.fragment = (!f.v6 && rng() % 50 == 0) ? static_cast<std::uint16_t>(rng() % 0x2000) : 0;
    const Bytes p = make_packet(f);
    ASSERT_EQ(s.pass(p), p) << "packet " << i;
  }
  // Packets that are not IP at all travel too.
  const Bytes odd{0x00, 0x11, 0x22};
  ASSERT_EQ(s.pass(odd), odd);
  EXPECT_EQ(s.rx.counters().malformed + s.rx.counters().context_breaks, 0u);
  EXPECT_GT(s.tx.counters().compressed, 10000u);
  EXPECT_EQ(s.tx.counters().opaque, 1u);
}

TEST(HeaderCompression, AnIpv4HeaderWithABadChecksumTravelsWholeAndUnchanged) {
  Stream s;
  Spec spec;
  const Bytes first = make_packet(spec);
  ASSERT_EQ(s.pass(first), first);
  spec.seq += 1300;
  ++spec.ip_id;
  Bytes bad = make_packet(spec);
  bad[11] ^= 0x5A;
  ASSERT_EQ(s.pass(bad), bad);
  EXPECT_EQ(s.tx.counters().full, 2u);
}

// A form lost between the ends (which the TCP/NC stream never does) breaks its context: the
// receiver drops that context's compressed forms, counted, until the next full header.
TEST(HeaderCompression, ABrokenContextIsCaughtAndHealsAtTheNextFullHeader) {
  Stream s;
  Spec spec;
  int dropped = 0, delivered = 0;
  for (int i = 0; i < 3 * static_cast<int>(kHcRefreshEvery); ++i) {
    spec.seq += 1300;
    ++spec.ip_id;
    const Bytes p = make_packet(spec);
    if (i == 10) { (void)s.send(p); continue; }  // lost
    const Bytes got = s.pass(p);
    if (got.empty()) { ++dropped; continue; }
    ASSERT_EQ(got, p) << i;  // never a wrong packet
    ++delivered;
  }
  EXPECT_GT(dropped, 0);
  EXPECT_LE(dropped, static_cast<int>(kHcRefreshEvery));
  EXPECT_EQ(s.rx.counters().context_breaks, static_cast<std::uint64_t>(dropped));
  EXPECT_GT(delivered, static_cast<int>(kHcRefreshEvery));
}

TEST(HeaderCompression, MalformedFormsAreDroppedAndCounted) {
  Stream s;
  Spec spec;
  (void)s.pass(make_packet(spec));
  spec.seq += 1300;
  ++spec.ip_id;
  const Bytes p = make_packet(spec);
  const auto f = s.send(p);
  const Bytes form(f.begin(), f.end());
  ASSERT_EQ(form[0] >> 4, kHcFormCompressed);
  HeaderDecompressor rx;
  Bytes out(9100);
  // Unknown kinds, a bare prefix, a compressed form cut inside its changes, an empty opaque form.
  for (const Bytes& bad : {Bytes{}, Bytes{0x50, 1, 2}, Bytes{0x00}, Bytes{0x10}, Bytes{0x30}, Bytes{0x10, 0x00, 0x12}})
    EXPECT_FALSE(rx.decompress(bad, out));
  EXPECT_EQ(rx.counters().malformed, 6u);
  // The compressed form against an empty context: a context break.
  EXPECT_FALSE(rx.decompress(form, out));
  EXPECT_EQ(rx.counters().context_breaks, 1u);
  // Against the right context: cut inside its changes, or with a change on the IPv4 checksum
  // (recomputed, never sent) or on the version byte (never changes within a context).
  const std::size_t head = form.size() - (p.size() - 52);
  for (std::size_t cut = kHcMaxPrefix; cut < head; ++cut) {
    Stream u;
    (void)u.pass(make_packet(Spec{}));
    EXPECT_FALSE(u.rx.decompress(std::span(form).first(cut), u.out)) << cut;
  }
  const auto serial2 = static_cast<std::uint8_t>(kHcFormCompressed << 4 | 2);
  for (const Bytes& change : {Bytes{serial2, form[1], 0x40, 0x20, 0xAB}, Bytes{serial2, form[1], 0x80, 0x80, 0x46}}) {
    Stream u;
    (void)u.pass(make_packet(Spec{}));
    Bytes bad = change;
    bad.insert(bad.end(), p.begin() + 52, p.end());
    EXPECT_FALSE(u.rx.decompress(bad, u.out));
    EXPECT_EQ(u.rx.counters().malformed, 1u);
  }
  // A rebuilt packet that does not fit the caller's buffer.
  Stream v;
  (void)v.pass(make_packet(Spec{}));
  Bytes small(100);
  EXPECT_FALSE(v.rx.decompress(v.send(p), small));
}

}  // namespace
}  // namespace ncgw::tcpnc
