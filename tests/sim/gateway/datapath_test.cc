// Whole gateways in the simulator (gateway_network.h): two or three data paths as the daemon runs
// them, on in-memory TUNs over simulated links, in virtual time, without root. What the netns tier
// shows with real devices is shown here on lossy, corrupting links, replayable from the seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "crypto/keys.h"
#include "crypto/primitives.h"
#include "crypto/secure_core.h"
#include "gateway/tun_offload.h"
#include "transports/common/byte_order.h"
#include "transports/common/inet_checksum.h"
#include "tests/sim/gateway/gateway_network.h"

namespace ncgw::sim {
namespace {

using namespace std::chrono_literals;

// A gateway `name` at underlay `self` with one peer `peer` at `peer_ip` over `transport`; hosts
// `local_net` behind it, `remote_net` behind the peer. `security` is a YAML fragment for the peer.
std::string pair_yaml(const std::string& name, const std::string& tun_addr, const std::string& peer,
                      const std::string& peer_ip, const std::string& transport, const std::string& remote_net,
                      const std::string& security) {
  return "gateway: {name: " + name + ", private_key_file: /nonexistent/" + name + ".key}\n" +
         "tun: {addresses: [" + tun_addr + "]}\n" +
         "peers:\n  - {name: " + peer + ", endpoint: " + peer_ip + ", transport: " + transport + ", " + security +
         "}\n" + "routes:\n  - {prefix: " + remote_net + ", via: " + peer + "}\n";
}

// Test keys: private key of gateway `i` from a fixed seed.
crypto::Key private_key(std::uint8_t i) {
  crypto::Key random{};
  random.fill(static_cast<std::uint8_t>(0x40 + i));
  return crypto::private_from_random(random);
}

// The `security` fragment and the keys of gateway `self` towards `other`.
std::string secured(std::uint8_t other) {
  return "public_key: \"" + crypto::to_base64(crypto::x25519_public(private_key(other))) + "\"";
}
std::vector<std::optional<gateway::PeerKeys>> keys_of(std::uint8_t self, std::uint8_t other) {
  gateway::PeerKeys k;
  k.local_private = private_key(self);
  k.remote_public = crypto::x25519_public(private_key(other));
  return {k};
}

// A 20 Mbit/s bottleneck with a 100-packet queue and 10 ms of delay; Bernoulli loss `loss`.
void lossy(Link& l, double loss, std::uint64_t seed) {
  l.add<Bottleneck>(20e6, 30, 100);
  l.add<Delay>(10ms);
  if (loss > 0) l.add<BernoulliLoss>(loss, seed);
}

// What reached a TUN: sequence numbers of intact inner_udp packets in write order, and the number
// of frames that were not intact.
struct Received {
  std::vector<std::uint64_t> seqs;
  std::size_t damaged = 0;
};
Received received(const MemoryTun& tun, std::size_t skip = 0) {
  Received r;
  for (const auto& f : tun.written()) {
    const auto seq = inner_seq({f.data() + skip, f.size() - skip});
    if (seq) {
      r.seqs.push_back(*seq);
    } else {
      ++r.damaged;
    }
  }
  return r;
}

// A core's statistic by name (0 when it has none).
double stat(const transport::Core& core, const std::string& name) {
  for (const auto& e : core.stats()) {
    if (e.name == name) return e.value;
  }
  return 0;
}

// True if `seqs` is exactly 0, 1, ..., n - 1.
bool exactly_in_order(const std::vector<std::uint64_t>& seqs, std::size_t n) {
  for (std::size_t i = 0; i < std::min(n, seqs.size()); ++i) {
    if (seqs[i] != i) {
      std::printf("[gateway-sim] position %zu holds %llu\n", i, static_cast<unsigned long long>(seqs[i]));
      return false;
    }
  }
  return seqs.size() == n;
}

// Two gateways over `transport` (security none), 5 % loss gw1 -> gw2; `count` packets of 1200
// bytes at 5 Mbit/s from behind gw1. Returns the network after the run.
std::unique_ptr<GatewayNetwork> run_pair(const std::string& transport, std::uint64_t seed, std::size_t count) {
  auto net = std::make_unique<GatewayNetwork>(seed);
  const std::string none = "security: none";
  net->add_gateway(pair_yaml("gw1", "10.99.0.1/30", "gw2", "192.0.2.2", transport, "10.2.0.0/24", none), "192.0.2.1");
  net->add_gateway(pair_yaml("gw2", "10.99.0.2/30", "gw1", "192.0.2.1", transport, "10.1.0.0/24", none), "192.0.2.2");
  lossy(net->link(0, 1), 0.05, net->seed_for(1));
  lossy(net->link(1, 0), 0, 0);
  net->start();
  for (std::size_t i = 0; i < count; ++i) {
    net->inject_at(0, TimePoint(1920us * static_cast<std::int64_t>(i) + 100ms), inner_udp("10.1.0.5", "10.2.0.5", i, 1200));
  }
  MemoryTun& tun2 = *net->gw(1).tun;
  net->run_until([&] { return tun2.written().size() >= count; }, TimePoint(60s));
  net->run_for(1s);   // anything duplicated or late would show now
  return net;
}

TEST(GatewaySim, TcpncTunnelOverALossyLinkDeliversEveryPacketOnceInOrder) {
  constexpr std::size_t kCount = 3000;
  auto net = run_pair("tcpnc", 9401, kCount);
  const Received r = received(*net->gw(1).tun);
  const auto& c1 = net->gw(0).datapath->counters();
  const auto& c2 = net->gw(1).datapath->counters();
  const auto& p1 = net->gw(0).datapath->peers()[0].counters;
  std::printf("[gateway-sim] tcpnc, 5 %% loss: %zu of %zu packets at gw2's TUN by %.3f s, damaged %zu; gw1 sent "
              "%llu datagrams, link dropped %llu; gw2 tun_tx %llu, unknown senders %llu\n",
              r.seqs.size(), kCount, std::chrono::duration<double>(net->now().time_since_epoch()).count(), r.damaged,
              static_cast<unsigned long long>(p1.datagrams_out),
              static_cast<unsigned long long>(net->link(0, 1).dropped()),
              static_cast<unsigned long long>(c2.tun_tx_packets), static_cast<unsigned long long>(c2.drop_unknown_sender));
  EXPECT_TRUE(exactly_in_order(r.seqs, kCount));
  EXPECT_EQ(r.damaged, 0u);
  EXPECT_EQ(c1.tun_rx_packets, kCount);
  EXPECT_EQ(p1.tun_packets_routed, kCount);
  EXPECT_EQ(p1.send_refused, 0u);
  EXPECT_GT(net->link(0, 1).dropped(), kCount / 40);   // the link really lost packets
  EXPECT_EQ(c2.tun_tx_packets, kCount);
  EXPECT_EQ(net->undeliverable(), 0u);
}

TEST(GatewaySim, PlainTunnelPassesWhatSurvivesTheLinkAndNothingElse) {
  constexpr std::size_t kCount = 2000;
  auto net = run_pair("plain", 9402, kCount);
  const Received r = received(*net->gw(1).tun);
  const std::uint64_t lost = net->link(0, 1).dropped();
  std::printf("[gateway-sim] plain, 5 %% loss: %zu of %zu at gw2's TUN, link dropped %llu\n", r.seqs.size(), kCount,
              static_cast<unsigned long long>(lost));
  // Plain repairs nothing: what the link dropped is missing (its drops include a few keepalives).
  EXPECT_LT(r.seqs.size(), kCount);
  EXPECT_GE(r.seqs.size() + lost, kCount);
  EXPECT_TRUE(std::is_sorted(r.seqs.begin(), r.seqs.end()));
  EXPECT_EQ(std::set<std::uint64_t>(r.seqs.begin(), r.seqs.end()).size(), r.seqs.size());
  EXPECT_EQ(r.damaged, 0u);
  EXPECT_GT(lost, 0u);
}

TEST(GatewaySim, ARunReplaysFromItsSeed) {
  auto a = run_pair("tcpnc", 9403, 800);
  auto b = run_pair("tcpnc", 9403, 800);
  const auto& pa = a->gw(0).datapath->peers()[0].counters;
  const auto& pb = b->gw(0).datapath->peers()[0].counters;
  EXPECT_EQ(pa.datagrams_out, pb.datagrams_out);
  EXPECT_EQ(a->gw(1).datapath->peers()[0].counters.datagrams_out, b->gw(1).datapath->peers()[0].counters.datagrams_out);
  EXPECT_EQ(a->link(0, 1).dropped(), b->link(0, 1).dropped());
  EXPECT_EQ(a->gw(1).tun->written(), b->gw(1).tun->written());
  EXPECT_EQ(a->now(), b->now());
}

// The secure layer on both sides (the default), TUN offloads on both sides: a link that corrupts
// 1 % of gw1's datagrams, and datagrams forged with gw1's address: every packet arrives once, in
// order and intact; the forgeries and corruptions are counted, none reaches the TUN.
TEST(GatewaySim, SecuredTunnelDropsForgedAndCorruptDatagramsAndDeliversEverythingElse) {
  constexpr std::size_t kCount = 2000;
  GatewayNetwork net(9404);
  net.add_gateway(pair_yaml("gw1", "10.99.0.1/30", "gw2", "192.0.2.2", "tcpnc", "10.2.0.0/24", secured(2)),
                  "192.0.2.1", keys_of(1, 2), true);
  net.add_gateway(pair_yaml("gw2", "10.99.0.2/30", "gw1", "192.0.2.1", "tcpnc", "10.1.0.0/24", secured(1)),
                  "192.0.2.2", keys_of(2, 1), true);
  lossy(net.link(0, 1), 0.02, net.seed_for(1));
  lossy(net.link(1, 0), 0, 0);
  std::uint64_t corrupted = 0;
  net.link(0, 1).set_mutator([&](std::vector<std::uint8_t>& bytes, std::uint64_t index) {
    if (index % 100 != 57 || bytes.size() < 40) return;
    bytes[bytes.size() - 20] ^= 0x5a;   // inside the record (2 routing bytes lead)
    ++corrupted;
  });
  net.start();
  const auto gw1_address = net.gw(0).ports.front()->local();
  for (std::size_t i = 0; i < kCount; ++i) {
    const TimePoint at(1920us * static_cast<std::int64_t>(i) + 100ms);
    net.inject_at(0, at, inner_udp("10.1.0.5", "10.2.0.5", i, 1200));
    if (i % 50 == 0) {   // a forgery: a data record of made-up bytes "from" gw1, and a raw inner packet
      std::vector<std::uint8_t> forged(200, static_cast<std::uint8_t>(i));
      forged[0] = 4;
      net.datagram_at(1, at, forged, gw1_address);
      net.datagram_at(1, at, inner_udp("10.1.0.66", "10.2.0.5", 1'000'000 + i, 300), gw1_address);
    }
  }
  MemoryTun& tun2 = *net.gw(1).tun;
  net.run_until([&] { return tun2.written().size() >= kCount; }, TimePoint(60s));
  net.run_for(1s);
  const Received r = received(tun2, gateway::kVnetHeaderSize);
  const auto& secure = dynamic_cast<const crypto::SecureCore&>(*net.gw(1).datapath->peers()[0].core);
  const auto& sc = secure.session().counters();
  std::printf("[gateway-sim] secured tcpnc, vnet TUNs: %zu of %zu delivered, damaged %zu; corrupted on the link %llu, "
              "forged 80; gw2 secure layer: bad tag %llu, unknown key %llu, malformed %llu\n",
              r.seqs.size(), kCount, r.damaged, static_cast<unsigned long long>(corrupted),
              static_cast<unsigned long long>(sc.drop_bad_tag), static_cast<unsigned long long>(sc.drop_unknown_key),
              static_cast<unsigned long long>(sc.drop_malformed));
  EXPECT_TRUE(exactly_in_order(r.seqs, kCount));
  EXPECT_EQ(r.damaged, 0u);
  for (const auto& f : tun2.written()) {
    ASSERT_GE(f.size(), gateway::kVnetHeaderSize);
    EXPECT_TRUE(std::equal(gateway::kPlainVnetHeader.begin(), gateway::kPlainVnetHeader.end(), f.begin()));
  }
  // A frame whose virtio_net_hdr has an unknown flag bit is counted and goes nowhere.
  const auto routed_before = net.gw(0).datapath->peers()[0].counters.tun_packets_routed;
  std::vector<std::uint8_t> bad_frame(gateway::kVnetHeaderSize);
  bad_frame[0] = 0x80;
  const auto packet = inner_udp("10.1.0.5", "10.2.0.5", 7, 300);
  bad_frame.insert(bad_frame.end(), packet.begin(), packet.end());
  net.gw(0).tun->inject_frame(bad_frame);
  net.gw(0).datapath->on_tun_readable(net.now());
  EXPECT_EQ(net.gw(0).datapath->counters().drop_bad_vnet_header, 1u);
  EXPECT_EQ(net.gw(0).datapath->peers()[0].counters.tun_packets_routed, routed_before);
  EXPECT_GT(corrupted, 0u);
  EXPECT_GE(sc.drop_bad_tag + sc.drop_unknown_key + sc.drop_malformed + sc.drop_bad_mac1 + sc.drop_replay,
            corrupted + 80);
}

// GW1 -> GW2 -> GW3 with TCP/NC on the first hop and plain on the second (gw2 has one port per
// transport, as the daemon): packets from behind gw1 reach gw3's TUN in order with their TTL
// lowered once; a packet with TTL 1 expires at gw2, whose ICMP Time Exceeded comes back to gw1's TUN.
TEST(GatewaySim, CascadeForwardsBetweenTransportsAndAnswersExpiredPackets) {
  GatewayNetwork net(9405);
  const std::string none = "security: none";
  net.add_gateway(pair_yaml("gw1", "10.99.0.1/29", "gw2", "192.0.2.2", "tcpnc", "10.3.0.0/24", none), "192.0.2.1");
  net.add_gateway("gateway: {name: gw2}\ntun: {addresses: [10.99.0.2/29]}\npeers:\n"
                  "  - {name: gw1, endpoint: 192.0.2.1, transport: tcpnc, security: none}\n"
                  "  - {name: gw3, endpoint: 192.0.2.3, transport: plain, security: none}\n"
                  "routes:\n  - {prefix: 10.1.0.0/24, via: gw1}\n  - {prefix: 10.3.0.0/24, via: gw3}\n",
                  "192.0.2.2");
  net.add_gateway(pair_yaml("gw3", "10.99.0.3/29", "gw2", "192.0.2.2", "plain", "10.1.0.0/24", none), "192.0.2.3");
  lossy(net.link(0, 1), 0.05, net.seed_for(1));
  lossy(net.link(1, 0), 0, 0);
  lossy(net.link(1, 2), 0, 0);
  lossy(net.link(2, 1), 0, 0);
  net.start();
  constexpr std::size_t kCount = 1000;
  for (std::size_t i = 0; i < kCount; ++i) {
    net.inject_at(0, TimePoint(2ms * static_cast<std::int64_t>(i) + 100ms), inner_udp("10.1.0.5", "10.3.0.5", i, 1000));
  }
  net.inject_at(0, TimePoint(50ms), inner_udp("10.1.0.5", "10.3.0.5", 999'999, 200, 1));
  MemoryTun& tun3 = *net.gw(2).tun;
  net.run_until([&] { return tun3.written().size() >= kCount; }, TimePoint(60s));
  net.run_for(1s);
  const Received r = received(tun3);
  std::size_t ttl63 = 0;
  for (const auto& f : tun3.written()) ttl63 += f.size() > 8 && f[8] == 63;
  std::size_t time_exceeded = 0;
  for (const auto& f : net.gw(0).tun->written()) time_exceeded += f.size() > 20 && f[9] == 1 && f[20] == 11;
  const auto& c2 = net.gw(1).datapath->counters();
  std::printf("[gateway-sim] cascade: %zu of %zu at gw3 (TTL 63: %zu); gw1's tcpnc entrance dropped %.0f (CoDel) "
              "and %.0f (full); gw2 forwarded %llu, TTL expired %llu; ICMP time exceeded at gw1's TUN: %zu\n",
              r.seqs.size(), kCount, ttl63, stat(*net.gw(0).datapath->peers()[0].core, "aqm_drops"),
              stat(*net.gw(0).datapath->peers()[0].core, "entrance_drops"),
              static_cast<unsigned long long>(c2.forwarded_packets), static_cast<unsigned long long>(c2.ttl_expired),
              time_exceeded);
  // TCP/NC repairs the first hop's loss, and its entrance drops nothing: before Startup counted
  // as self-inflicted queueing, CoDel dropped this flow's 19th packet while the controller was
  // still starting (counted in aqm_drops).
  const auto& core1 = *net.gw(0).datapath->peers()[0].core;
  EXPECT_EQ(stat(core1, "aqm_drops") + stat(core1, "entrance_drops"), 0);
  EXPECT_TRUE(exactly_in_order(r.seqs, kCount));
  EXPECT_EQ(ttl63, r.seqs.size());
  EXPECT_EQ(c2.forwarded_packets, r.seqs.size());   // the ICMP answer is gw2's own, not forwarded
  EXPECT_EQ(c2.ttl_expired, 1u);
  EXPECT_EQ(time_exceeded, 1u);
}

// What one flow saw at gw2's TUN: its packets delivered, and the largest one-way delay of those
// sent after the tunnel's start-up (whose bursts fill the bottleneck's queue).
struct FlowSeen {
  std::size_t delivered = 0;
  Duration max_delay{};
  // Counts a packet sent at `sent` that arrived at `now`.
  void add(TimePoint sent, TimePoint now) {
    ++delivered;
    if (sent >= TimePoint(1500ms)) max_delay = std::max(max_delay, now - sent);
  }
};
struct BulkAndLight {
  FlowSeen bulk, light;
  double short_queue_periods = 0;
};

// gw1 -> gw2 over tcpnc (20 Mbit/s, 10 ms, no loss): a bulk UDP flow from 10.1.0.5 at 30 Mbit/s
// (which does not slow down for drops) fills gw1's entrance for 3 s while a light flow from
// 10.1.0.6 sends one packet every 100 ms.
BulkAndLight bulk_and_light(const std::string& tcpnc_settings) {
  GatewayNetwork net(9407);
  const std::string peer = "security: none, tcpnc: {" + tcpnc_settings + "}";
  net.add_gateway(pair_yaml("gw1", "10.99.0.1/30", "gw2", "192.0.2.2", "tcpnc", "10.2.0.0/24", peer), "192.0.2.1");
  net.add_gateway(pair_yaml("gw2", "10.99.0.2/30", "gw1", "192.0.2.1", "tcpnc", "10.1.0.0/24", peer), "192.0.2.2");
  lossy(net.link(0, 1), 0, 0);
  lossy(net.link(1, 0), 0, 0);
  net.start();
  constexpr std::uint64_t kLight = 1000000;  // light packets' sequence numbers start here
  const auto bulk_sent = [](std::uint64_t i) { return TimePoint(320us * static_cast<std::int64_t>(i) + 100ms); };
  const auto light_sent = [](std::uint64_t i) { return TimePoint(100ms * static_cast<std::int64_t>(i) + 305ms); };
  for (std::uint64_t i = 0; i < 9375; ++i) net.inject_at(0, bulk_sent(i), inner_udp("10.1.0.5", "10.2.0.5", i, 1200));
  for (std::uint64_t i = 0; i < 28; ++i) {
    net.inject_at(0, light_sent(i), inner_udp("10.1.0.6", "10.2.0.6", kLight + i, 100));
  }
  BulkAndLight seen;
  std::size_t next = 0;
  const auto& written = net.gw(1).tun->written();
  net.run_until([&] {
    for (; next < written.size(); ++next) {
      const auto seq = inner_seq(written[next]);
      if (!seq) continue;
      if (*seq < kLight) seen.bulk.add(bulk_sent(*seq), net.now());
      else seen.light.add(light_sent(*seq - kLight), net.now());
    }
    return false;
  }, TimePoint(5s));
  const auto& core = *net.gw(0).datapath->peers()[0].core;
  seen.short_queue_periods = stat(core, "short_queue_periods");
  std::printf("[gateway-sim] %s: light flow %zu of 28 delivered, max delay after start-up %.1f ms; bulk flow %zu of "
              "9375, max delay %.1f ms; entrance drops %.0f + CoDel %.0f, sparse lane %.0f, short queue periods %.0f\n",
              tcpnc_settings.c_str(), seen.light.delivered,
              std::chrono::duration<double, std::milli>(seen.light.max_delay).count(), seen.bulk.delivered,
              std::chrono::duration<double, std::milli>(seen.bulk.max_delay).count(), stat(core, "entrance_drops"),
              stat(core, "aqm_drops"), stat(core, "sparse_accepted"), seen.short_queue_periods);
  return seen;
}

TEST(GatewaySim, ALightFlowPassesABulkFlowThatFillsTheTcpncEntrance) {
  const BulkAndLight fifo = bulk_and_light("sparse_flow_priority: false");
  const BulkAndLight lanes = bulk_and_light("sparse_flow_priority: true");
  EXPECT_LT(fifo.light.delivered, 28u);  // one FIFO: the full entrance drops light packets too
  EXPECT_EQ(lanes.light.delivered, 28u);
  // The light flow's delay: the path (10 ms) and the bottleneck's short queue, without the
  // entrance queue's on top.
  EXPECT_LT(lanes.light.max_delay, 20ms);
  // In one FIFO the light packets wait like the bulk ones (the few that get in are those that found
  // the queue short: 7-10 of 28, too few and too lucky to compare their maximum).
  EXPECT_LT(lanes.light.max_delay, fifo.bulk.max_delay);
}

TEST(GatewaySim, AFlowThatIgnoresCodelGetsAShortEntranceQueue) {
  const BulkAndLight r = bulk_and_light("sparse_flow_priority: true");
  // Without the short queue the entrance holds half the min RTT + 10 ms (20 ms here) at the path
  // rate, and the bulk flow's packets took up to 39 ms (seed 9407); with it the entrance holds
  // CoDel's target (5 ms, floor 16 packets: about 9 ms at this rate), so 25 ms with the path's
  // 10 ms and the bottleneck's queue while the tunnel probes.
  EXPECT_GE(r.short_queue_periods, 1);
  EXPECT_LT(r.bulk.max_delay, 30ms);
}

}  // namespace
}  // namespace ncgw::sim

namespace ncgw::sim {
namespace {

// Packet `i` of a bulk IPv4 TCP flow 10.1.0.5:40000 -> 10.2.0.5:80 as a Linux sender writes it:
// timestamps option, DF, identification and sequence counting up, valid IP and TCP checksums.
std::vector<std::uint8_t> bulk_tcp(std::uint32_t i, std::size_t payload) {
  std::vector<std::uint8_t> p(52 + payload);
  std::uint8_t* h = p.data();
  h[0] = 0x45;
  transport::put_be16(h + 2, static_cast<std::uint16_t>(p.size()));
  transport::put_be16(h + 4, static_cast<std::uint16_t>(7000 + i));
  h[6] = 0x40, h[8] = 64, h[9] = 6;
  h[12] = 10, h[13] = 1, h[15] = 5, h[16] = 10, h[17] = 2, h[19] = 5;
  transport::put_be16(h + 10, transport::checksum_finish(transport::checksum_add(0, {h, 20})));
  std::uint8_t* t = h + 20;
  transport::put_be16(t, 40000);
  transport::put_be16(t + 2, 80);
  transport::put_be32(t + 4, 1'000'000 + i * static_cast<std::uint32_t>(payload));
  transport::put_be32(t + 8, 555);
  t[12] = 0x80, t[13] = 0x18;
  transport::put_be16(t + 14, 502);
  t[20] = 1, t[21] = 1, t[22] = 8, t[23] = 10;
  transport::put_be32(t + 24, 900'000 + i / 4);   // TSval: a 1 kHz clock, four packets a tick
  transport::put_be32(t + 28, 300'000 + i / 40);  // TSecr: the peer's clock, echoed
  for (std::size_t k = 52; k < p.size(); ++k) p[k] = static_cast<std::uint8_t>(i * 7 + k);
  std::uint32_t sum = transport::checksum_add(0, {h + 12, 8});  // pseudo header
  const std::array<std::uint8_t, 4> tail{0, 6, static_cast<std::uint8_t>((p.size() - 20) >> 8),
                                         static_cast<std::uint8_t>(p.size() - 20)};
  sum = transport::checksum_add(sum, tail);
  transport::put_be16(t + 16, transport::checksum_finish(transport::checksum_add(sum, {t, p.size() - 20})));
  return p;
}

// Bytes gw1 put on the (lossless) link and what reached gw2's TUN, for a bulk TCP flow of
// `count` packets, with header compression set to `on` at gw1 (gw2 keeps the default, on).
struct CompressionRun {
  std::uint64_t link_bytes = 0;
  bool exact = false;
  double compressed = 0, rebuilt = 0;
};
CompressionRun run_bulk_tcp(bool on, std::size_t count) {
  GatewayNetwork net(9411);
  const std::string none = "security: none";
  const std::string gw1_peer = on ? none : none + ", tcpnc: {header_compression: false}";
  net.add_gateway(pair_yaml("gw1", "10.99.0.1/30", "gw2", "192.0.2.2", "tcpnc", "10.2.0.0/24", gw1_peer), "192.0.2.1");
  net.add_gateway(pair_yaml("gw2", "10.99.0.2/30", "gw1", "192.0.2.1", "tcpnc", "10.1.0.0/24", none), "192.0.2.2");
  lossy(net.link(0, 1), 0, 0);
  lossy(net.link(1, 0), 0, 0);
  CompressionRun run;
  net.link(0, 1).set_mutator([&](std::vector<std::uint8_t>& bytes, std::uint64_t) { run.link_bytes += bytes.size(); });
  net.start();
  std::vector<std::vector<std::uint8_t>> sent;
  for (std::uint32_t i = 0; i < count; ++i) {
    sent.push_back(bulk_tcp(i, 1300));
    net.inject_at(0, TimePoint(800us * static_cast<std::int64_t>(i) + 100ms), sent.back());
  }
  MemoryTun& tun2 = *net.gw(1).tun;
  net.run_until([&] { return tun2.written().size() >= count; }, TimePoint(60s));
  net.run_for(1s);
  run.exact = tun2.written() == sent;
  run.compressed = stat(*net.gw(0).datapath->peers()[0].core, "headers_compressed");
  run.rebuilt = stat(*net.gw(1).datapath->peers()[0].core, "headers_rebuilt");
  return run;
}

// Header compression end to end through two whole gateways: a bulk TCP flow arrives bit for bit,
// and each of its datagrams is about 40 bytes shorter than without compression (52-byte inner
// IP+TCP headers travel as their few changed bytes). With one side switched off, neither compresses.
TEST(GatewaySim, TcpncHeaderCompressionShortensEveryDatagramOfATcpFlowAndDeliversItExactly) {
  constexpr std::size_t kCount = 2000;
  const CompressionRun on = run_bulk_tcp(true, kCount);
  const CompressionRun off = run_bulk_tcp(false, kCount);
  const double saved = (static_cast<double>(off.link_bytes) - static_cast<double>(on.link_bytes)) / kCount;
  std::printf("[gateway-sim] bulk TCP through tcpnc: link bytes %llu with header compression, %llu without: "
              "%.1f bytes saved per packet; %.0f headers compressed, %.0f rebuilt\n",
              static_cast<unsigned long long>(on.link_bytes), static_cast<unsigned long long>(off.link_bytes), saved,
              on.compressed, on.rebuilt);
  EXPECT_TRUE(on.exact);
  EXPECT_TRUE(off.exact);
  EXPECT_GT(saved, 35.0);
  EXPECT_GT(on.compressed, kCount * 0.95);
  EXPECT_EQ(on.rebuilt, on.compressed);
  EXPECT_EQ(off.compressed, 0);
  EXPECT_EQ(off.rebuilt, 0);
}

}  // namespace
}  // namespace ncgw::sim
