// Checks that the TCP/NC hot path does not allocate in steady state: two cores exchange datagrams
// directly (every 20th DATA datagram dropped, so repairs, losses and retransmissions run too)
// while a global operator new counts allocations; half-way through the counted phase the drops
// become every 5th, so the sender re-chooses (n, k) (coding::RedundancyChooser) while counted.
// Stats() may allocate and is not called while counting. The packets are IPv4/UDP, so inner
// header compression (on by default) runs on every one of them.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>

#include "transports/common/byte_order.h"
#include "transports/common/inet_checksum.h"
#include "transports/tcpnc/tcpnc_core.h"

#include "tests/unit/common/alloc_counter.h"

namespace ncgw::tcpnc {
namespace {

// Two cores wired back to back with instant delivery and a deterministic drop pattern.
struct Pair {
  explicit Pair(const TcpncCoreSettings& s) : a(s, 1), b(s, 2), buf(2048), pkt(1200, 0x5A) {
    pkt[0] = 0x45;                       // IPv4, no options
    pkt[2] = 1200 >> 8, pkt[3] = 1200 & 0xFF;
    pkt[6] = 0x40, pkt[8] = 64, pkt[9] = 17;
    pkt[4] = pkt[5] = pkt[10] = pkt[11] = 0;
    transport::put_be16(pkt.data() + 10, transport::checksum_finish(transport::checksum_add(0, {pkt.data(), 20})));
  }

  // One step at time `t`: offer packets to A, move datagrams both ways, deliver, run timers.
  void step(TimePoint t) {
    while (a.send(pkt, t) == transport::SendResult::accepted) ++offered;
    for (int round = 0; round < 4; ++round) {
      while (auto n = a.poll_transmit(buf, t)) {
        if (peek_type({buf.data(), *n}) == PacketType::kData && ++data_count % drop_every == 0) continue;
        b.on_datagram({buf.data(), *n}, t);
      }
      while (auto n = b.poll_transmit(buf, t)) a.on_datagram({buf.data(), *n}, t);
      while (b.poll_deliver(buf)) ++delivered;
    }
    for (transport::Core* c : {static_cast<transport::Core*>(&a), static_cast<transport::Core*>(&b)})
      if (auto d = c->next_deadline(); d && *d <= t) c->on_timeout(t);
  }

  TcpncCore a, b;
  std::vector<std::uint8_t> buf, pkt;
  std::uint64_t offered = 0, delivered = 0, data_count = 0;
  std::uint64_t drop_every = 20;  // every this many-th DATA datagram is dropped
};

// Runs a pair with settings `s` to steady state, then counts allocations over 2000 steps in which
// the loss steps from 5% to 20% (the plan is re-chosen).
void expect_no_allocation(const TcpncCoreSettings& s) {
  std::printf("seed=none (deterministic drop pattern)\n");
  Pair p(s);
  std::int64_t t = 0;
  for (int i = 0; i < 3000; ++i) p.step(transport::time_from_ns(t += 200'000));
  ASSERT_TRUE(p.a.established());
  const auto delivered_before = p.delivered;
  ASSERT_GT(delivered_before, 1000u);
  const auto adaptations_before = p.a.sender().counters().adaptations;
  const unsigned k_before = p.a.sender().k();
  g_allocations = 0;
  g_counting = true;
  for (int i = 0; i < 2000; ++i) {
    if (i == 1000) p.drop_every = 5;  // loss 5% -> 20%: the estimate moves, (n, k) is re-chosen
    p.step(transport::time_from_ns(t += 200'000));
  }
  g_counting = false;
  const auto adaptations = p.a.sender().counters().adaptations - adaptations_before;
  std::printf("delivered %llu packets in the counted phase; adaptations %llu, k %u -> %u; allocations %llu\n",
              static_cast<unsigned long long>(p.delivered - delivered_before), static_cast<unsigned long long>(adaptations),
              k_before, p.a.sender().k(), static_cast<unsigned long long>(g_allocations.load()));
  EXPECT_GT(p.delivered - delivered_before, 5000u);
  EXPECT_GT(adaptations, 0u);
  EXPECT_GT(p.a.sender().k(), k_before);
  EXPECT_GT(p.a.sender().counters().repairs_sent, 0u);
  EXPECT_EQ(g_allocations.load(), 0u);
  double compressed = 0;
  for (const auto& e : p.a.stats()) if (e.name == "headers_compressed") compressed = e.value;
  EXPECT_GT(compressed, 5000);  // the compressor ran in the counted phase
}

TEST(TcpncAllocation, SteadyStateHotPathDoesNotAllocate) {
  TcpncCoreSettings s;  // model-based controller, pacing, with a fixed window cap
  s.cwnd_max_packets = 64;
  expect_no_allocation(s);
}

TEST(TcpncAllocation, DefaultsDoNotAllocateEither) {
  expect_no_allocation(TcpncCoreSettings{});  // automatic sizing: CoDel, delay-bounded CWs
}

TEST(TcpncAllocation, WindowControllerDoesNotAllocate) {
  TcpncCoreSettings s;
  s.congestion_control = CcAlgorithm::kNewReno;
  s.cwnd_max_packets = 64;
  expect_no_allocation(s);
}

}  // namespace
}  // namespace ncgw::tcpnc
