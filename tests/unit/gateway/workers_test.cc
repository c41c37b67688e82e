// The parts of gateway.workers that need no root: the handoff channel between two workers (order,
// a full channel, an oversize packet, slots reused), the channel used by two real threads, the
// placement of peers, the worker count, and the config key. And the sockets: a connected UDP socket
// sharing its port with an unconnected one gets its peer's datagrams, the unconnected one the rest
// (over loopback; poll() guards against a hang, it is not a timing assertion).
#include <poll.h>

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

#include "config/loader.h"
#include "config/prefix.h"
#include "gateway/handoff.h"
#include "gateway/udp_port.h"
#include "gateway/worker.h"

namespace ncgw::gateway {
namespace {

// Drains `ch` into (peer, first byte, size) triples.
std::vector<std::tuple<std::size_t, std::uint8_t, std::size_t>> drain_all(HandoffChannel& ch, std::size_t most = 1u << 20) {
  std::vector<std::tuple<std::size_t, std::uint8_t, std::size_t>> out;
  ch.drain(most, [&](std::size_t peer, std::span<const std::uint8_t> p) { out.emplace_back(peer, p[0], p.size()); });
  return out;
}

TEST(HandoffChannel, PacketsArriveInOrderWithTheirPeer) {
  HandoffChannel ch(1500, 8);
  for (std::uint8_t i = 0; i < 5; ++i) {
    const std::vector<std::uint8_t> p(100u + i, i);
    ASSERT_TRUE(ch.push(i % 2, p));
  }
  const auto got = drain_all(ch);
  ASSERT_EQ(got.size(), 5u);
  for (std::uint8_t i = 0; i < 5; ++i) EXPECT_EQ(got[i], std::make_tuple(std::size_t{i % 2u}, i, 100u + i));
}

TEST(HandoffChannel, AFullChannelRefusesAndSlotsComeBackAfterADrain) {
  HandoffChannel ch(64, 4);
  const std::vector<std::uint8_t> p(64, 7);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(ch.push(0, p));
  EXPECT_FALSE(ch.push(0, p));
  EXPECT_EQ(drain_all(ch, 3).size(), 3u);   // at most `most`
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(ch.push(1, p));
  EXPECT_FALSE(ch.push(1, p));
  const auto got = drain_all(ch);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(std::get<0>(got[0]), 0u);   // the one left from before comes first
  EXPECT_EQ(std::get<0>(got[3]), 1u);
}

TEST(HandoffChannel, APacketLargerThanASlotIsRefused) {
  HandoffChannel ch(100, 4);
  EXPECT_FALSE(ch.push(0, std::vector<std::uint8_t>(101, 1)));
  EXPECT_TRUE(ch.push(0, std::vector<std::uint8_t>(100, 1)));
}

TEST(HandoffChannel, TwoThreadsPassEveryPacketOnceInOrder) {
  HandoffChannel ch(16, 64);
  constexpr std::uint32_t kPackets = 200000;
  std::thread producer([&] {
    for (std::uint32_t i = 0; i < kPackets;) {
      std::uint8_t p[8];
      std::memcpy(p, &i, sizeof i);
      std::memset(p + 4, static_cast<int>(i & 0xff), 4);
      if (ch.push(i % 3, p)) ++i;
      else std::this_thread::yield();
    }
  });
  std::uint32_t next = 0;
  bool intact = true;
  while (next < kPackets) {
    ch.drain(1000, [&](std::size_t peer, std::span<const std::uint8_t> p) {
      std::uint32_t seq = 0;
      std::memcpy(&seq, p.data(), sizeof seq);
      intact = intact && seq == next && peer == next % 3 && p.size() == 8 && p[7] == (seq & 0xff);
      ++next;
    });
  }
  producer.join();
  EXPECT_TRUE(intact);
  EXPECT_EQ(drain_all(ch).size(), 0u);
}

TEST(HandoffMesh, AWakeMakesTheWorkersEventfdReadableUntilCleared) {
  HandoffMesh mesh(3, 1500);
  mesh.wake(2);
  mesh.wake(2);
  pollfd p{mesh.wake_fd(2), POLLIN, 0};
  EXPECT_EQ(poll(&p, 1, 0), 1);
  mesh.clear_wake(2);
  EXPECT_EQ(poll(&p, 1, 0), 0);
  pollfd q{mesh.wake_fd(1), POLLIN, 0};
  EXPECT_EQ(poll(&q, 1, 0), 0);
  EXPECT_TRUE(mesh.channel(0, 2).push(1, std::vector<std::uint8_t>(10, 1)));
  EXPECT_EQ(drain_all(mesh.channel(1, 2)).size(), 0u);   // channels are per ordered pair
  EXPECT_EQ(drain_all(mesh.channel(0, 2)).size(), 1u);
}

TEST(Workers, PeersAreDealtRoundRobin) {
  const WorkerPlacement p = place_peers(1, 2, 5);
  EXPECT_EQ(p.index, 1u);
  EXPECT_EQ(p.workers, 2u);
  EXPECT_EQ(p.worker_of_peer, (std::vector<std::size_t>{0, 1, 0, 1, 0}));
}

// Loads `yaml`; fails the test if it is rejected.
config::GatewayConfig load_ok(const std::string& yaml) {
  const config::LoadResult r = config::load_config_string(yaml, "test.yaml");
  if (const auto* e = std::get_if<config::ConfigError>(&r)) {
    ADD_FAILURE() << config::format_error(*e);
    return {};
  }
  return std::get<config::GatewayConfig>(r);
}

// The formatted error `yaml` produces, or "" if it loads.
std::string load_error(const std::string& yaml) {
  const config::LoadResult r = config::load_config_string(yaml, "test.yaml");
  const auto* e = std::get_if<config::ConfigError>(&r);
  return e ? config::format_error(*e) : "";
}

constexpr const char* kThreePeers =
    "peers:\n"
    "  - {name: a, endpoint: 192.0.2.1, transport: plain, security: none}\n"
    "  - {name: b, endpoint: 192.0.2.2, transport: plain, security: none}\n"
    "  - {name: c, endpoint: 192.0.2.3, transport: tcpnc, security: none}\n";

TEST(Workers, TheKeyReadsAutoOrANumberAndLoadsBackEqual) {
  const config::GatewayConfig automatic = load_ok("gateway: {name: gw1}\n");
  EXPECT_EQ(automatic.workers, 0u);
  EXPECT_NE(config::to_yaml(automatic).find("workers: auto"), std::string::npos);
  const config::GatewayConfig three = load_ok("gateway: {name: gw1, workers: 3}\n");
  EXPECT_EQ(three.workers, 3u);
  EXPECT_EQ(load_ok(config::to_yaml(three)), three);
  EXPECT_EQ(load_ok("gateway: {name: gw1, workers: auto}\n").workers, 0u);
}

TEST(Workers, BadValuesAreRejectedWithTheRange) {
  EXPECT_EQ(load_error("gateway: {name: gw1, workers: 0}\n"),
            "test.yaml:1:31: gateway.workers: expected 'auto' or an integer in 1..64, got 0");
  EXPECT_EQ(load_error("gateway: {name: gw1, workers: 65}\n"),
            "test.yaml:1:31: gateway.workers: expected 'auto' or an integer in 1..64, got 65");
  EXPECT_NE(load_error("gateway: {name: gw1, workers: many}\n"), "");
}

TEST(Workers, NeverMoreThanThePeersNorFewerThanOne) {
  config::GatewayConfig cfg = load_ok(std::string("gateway: {name: gw1, workers: 8}\n") + kThreePeers);
  EXPECT_EQ(worker_count(cfg), 3u);
  cfg.workers = 2;
  EXPECT_EQ(worker_count(cfg), 2u);
  cfg.workers = 0;   // auto: one per peer, at most one per core we may run on
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  EXPECT_EQ(worker_count(cfg), std::min<std::size_t>(3, CPU_COUNT(&set)));
  cfg.peers.clear();
  EXPECT_EQ(worker_count(cfg), 1u);
}

SocketAddress address_of(const UdpPort& port) {
  SocketAddress a;
  a.length = sizeof a.storage;
  getsockname(port.fd(), reinterpret_cast<sockaddr*>(&a.storage), &a.length);
  return a;
}

// Receives one datagram on `port` (waits up to 5 s); its first byte, or -1.
int receive_one(UdpPort& port) {
  pollfd p{port.fd(), POLLIN, 0};
  if (poll(&p, 1, 5000) <= 0 || port.receive_batch() == 0) return -1;
  return port.received(0)[0];
}

TEST(UdpPortSharing, TheConnectedSocketGetsItsPeersDatagramsTheSharedOneTheRest) {
  const auto loopback = *config::parse_ip("127.0.0.1");
  UdpPort peer(loopback, 0), stranger(loopback, 0);
  UdpPort shared(SocketAddress::from(loopback, 0), UdpOffloads::none, WhenBlocked::drop,
                 PortSharing{true, std::nullopt});
  const std::uint16_t port = shared.local_port();
  UdpPort connected(SocketAddress::from(loopback, port), UdpOffloads::none, WhenBlocked::drop,
                    PortSharing{true, address_of(peer)});
  EXPECT_NE(connected.local_name().find(" to "), std::string::npos) << connected.local_name();
  const SocketAddress there = SocketAddress::from(loopback, port);
  for (auto [from, tag] : {std::pair{&peer, 1}, std::pair{&stranger, 2}}) {
    from->send_slot()[0] = static_cast<std::uint8_t>(tag);
    from->commit_send(1, there);
    from->flush();
  }
  EXPECT_EQ(receive_one(connected), 1);
  EXPECT_EQ(receive_one(shared), 2);
  // and the connected socket sends from the shared port
  connected.send_slot()[0] = 9;
  connected.commit_send(1, address_of(peer));
  EXPECT_EQ(connected.flush(), 0u);
  ASSERT_EQ(receive_one(peer), 9);
  EXPECT_EQ(peer.sender(0).port(), port);
}

TEST(UdpPortSharing, WithoutSharingTheSecondBindFails) {
  const auto loopback = *config::parse_ip("127.0.0.1");
  UdpPort first(loopback, 0);
  EXPECT_THROW(UdpPort(loopback, first.local_port()), std::system_error);
}

}  // namespace
}  // namespace ncgw::gateway
