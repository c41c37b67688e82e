// Parallel UDT channels (paper 001) in virtual time: many inner flows over several channels, loss on
// one channel only, and channels that come and go as the ACT tuner moves the count. Every flow must
// arrive complete, exactly once and in order.
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "tests/unit/udt/tunnel_link.h"

namespace ncgw::udt {
namespace {

using namespace std::chrono_literals;
using test::Link;
using transport::SendResult;

constexpr std::uint16_t kFlows = 16;

// Sends `per_flow` packets on each of kFlows inner flows, one way (from `tx` to `rx`), and checks
// what `rx` delivers: per flow in order and never twice (out_of_order counts a packet older than
// one already delivered), and how many were skipped (lost).
struct FlowCheck {
  std::uint32_t per_flow = 0;
  std::vector<std::uint32_t> next_send = std::vector<std::uint32_t>(kFlows, 0);
  std::vector<std::uint32_t> next_recv = std::vector<std::uint32_t>(kFlows, 0);
  std::uint64_t delivered = 0, out_of_order = 0, lost = 0;
  std::uint16_t turn = 0;

  void offer(UdtTunnelCore& tx, transport::TimePoint now) {
    for (int tries = 0; tries < kFlows; ++tries, turn = static_cast<std::uint16_t>((turn + 1) % kFlows)) {
      std::uint32_t& seq = next_send[turn];
      if (seq >= per_flow) continue;
      while (seq < per_flow && tx.send(test::flow_packet(turn, seq, 300 + (seq % 7) * 100), now) == SendResult::accepted) {
        ++seq;
        if (seq % 64 == 0) break;  // interleave the flows
      }
    }
  }
  void collect(UdtTunnelCore& rx) {
    std::vector<std::uint8_t> buf(2048);
    while (const auto n = rx.poll_deliver(buf)) {
      const auto [flow, seq] = test::flow_and_seq(std::span<const std::uint8_t>(buf.data(), *n));
      if (flow >= kFlows || seq < next_recv[flow]) {
        ++out_of_order;
        continue;
      }
      lost += seq - next_recv[flow];
      next_recv[flow] = seq + 1;
      ++delivered;
    }
  }
  bool done() const { return delivered + lost == std::uint64_t{per_flow} * kFlows; }
};

UdtTunnelSettings parallel(TunnelRole role, const PeerAddress& peer, std::uint64_t seed, unsigned channels) {
  UdtTunnelSettings s = test::settings(role, peer, seed);
  s.channels = channels;
  return s;
}

TEST(UdtParallel, FourChannelsCarrySixteenFlowsInOrderBothWays) {
  Link l;
  l.a = std::make_unique<UdtTunnelCore>(parallel(TunnelRole::caller, test::kB, 11, 4));
  l.b = std::make_unique<UdtTunnelCore>(parallel(TunnelRole::listener, test::kA, 12, 4));
  ASSERT_TRUE(l.run_until([&] { return l.a->channels_connected() == 4 && l.b->channels_connected() == 4; }, 3s));
  FlowCheck ab{2000}, ba{2000};
  ASSERT_TRUE(l.run_until([&] {
    ab.offer(*l.a, l.now);
    ba.offer(*l.b, l.now);
    ab.collect(*l.b);
    ba.collect(*l.a);
    return ab.done() && ba.done();
  }, 60s));
  EXPECT_EQ(ab.out_of_order + ab.lost, 0u);
  EXPECT_EQ(ba.out_of_order + ba.lost, 0u);
  std::map<int, int> slots;
  for (std::uint16_t f = 0; f < kFlows; ++f) ++slots[l.a->slot_of(test::flow_packet(f, 0, 64))];
  EXPECT_EQ(slots.size(), 4u) << "16 flows should land on all 4 channels";
  EXPECT_EQ(test::stat(*l.a, "channels_connected"), 4);
  EXPECT_EQ(test::stat(*l.b, "channels_active"), 4);
  EXPECT_EQ(test::stat(*l.a, "dropped_channel_lost"), 0);
}

TEST(UdtParallel, LossOnOneChannelOnlyKeepsEveryFlowWholeAndInOrder) {
  Link l;
  l.a = std::make_unique<UdtTunnelCore>(parallel(TunnelRole::caller, test::kB, 21, 4));
  l.b = std::make_unique<UdtTunnelCore>(parallel(TunnelRole::listener, test::kA, 22, 4));
  ASSERT_TRUE(l.run_until([&] { return l.a->channels_connected() == 4 && l.b->channels_connected() == 4; }, 3s));
  const std::uint32_t lossy_id = static_cast<std::uint32_t>(l.a->channel(1)->peer_id());
  int data = 0;
  l.drop_ab = [&](const std::vector<std::uint8_t>& d) {  // every 50th data packet of channel 1
    const std::uint32_t dest = std::uint32_t{d[12]} << 24 | std::uint32_t{d[13]} << 16 | std::uint32_t{d[14]} << 8 | d[15];
    return (d[0] & 0x80) == 0 && dest == lossy_id && ++data % 50 == 0;
  };
  FlowCheck ab{1500};
  ASSERT_TRUE(l.run_until([&] {
    ab.offer(*l.a, l.now);
    ab.collect(*l.b);
    return ab.done();
  }, 60s)) << "delivered " << ab.delivered << " dropped " << data << " sent ch1 " << l.a->channel(1)->stats().sent
            << " period " << l.a->channel(1)->stats().period_us << " state " << to_string(l.a->channel(1)->state());
  EXPECT_EQ(ab.out_of_order + ab.lost, 0u);
  EXPECT_GT(data, 1000);
  EXPECT_GT(l.a->channel(1)->stats().retransmitted, 0u);
  for (int s : {0, 2, 3}) EXPECT_EQ(l.a->channel(s)->stats().retransmitted, 0u) << "channel " << s;
}

// The listener's datagrams on one channel stop: the caller gives the channel up and opens a
// replacement while the listener still holds the stale one. The listener must take the
// replacement without pushing out a live channel (that one would break in turn, and so on).
TEST(UdtParallel, ABrokenChannelIsReplacedWithoutBreakingTheOthers) {
  Link l;
  auto a = parallel(TunnelRole::caller, test::kB, 41, 4);
  auto b = parallel(TunnelRole::listener, test::kA, 42, 4);
  a.conn.peer_idle_timeout_us = b.conn.peer_idle_timeout_us = 1'000'000;
  a.reconnect_delay_us = 100'000;
  l.a = std::make_unique<UdtTunnelCore>(a);
  l.b = std::make_unique<UdtTunnelCore>(b);
  ASSERT_TRUE(l.run_until([&] { return l.a->channels_connected() == 4 && l.b->channels_connected() == 4; }, 3s));
  const std::uint32_t cut_id = static_cast<std::uint32_t>(l.a->channel(2)->self_id());
  l.drop_ba = [&](const std::vector<std::uint8_t>& d) {
    return (std::uint32_t{d[12]} << 24 | std::uint32_t{d[13]} << 16 | std::uint32_t{d[14]} << 8 | d[15]) == cut_id;
  };
  FlowCheck ab{3000};
  ASSERT_TRUE(l.run_until([&] {
    ab.offer(*l.a, l.now);
    ab.collect(*l.b);
    return ab.delivered > 0 && l.a->sessions() == 5 && l.a->channels_connected() == 4 && l.b->channels_connected() == 4;
  }, 20s)) << "caller sessions " << l.a->sessions() << ", listener " << l.b->sessions();
  l.run_until([&] {
    ab.offer(*l.a, l.now);
    ab.collect(*l.b);
    return false;
  }, 5s);
  EXPECT_EQ(l.a->sessions(), 5u);
  EXPECT_EQ(l.b->sessions(), 5u);
  EXPECT_EQ(l.a->channels_connected(), 4);
  EXPECT_EQ(l.b->channels_connected(), 4);
  EXPECT_EQ(ab.out_of_order, 0u);
  // What the broken channel held unacknowledged is counted; with only its ACKs cut, some of that
  // had reached the listener, so the count bounds the loss from above.
  EXPECT_GT(ab.lost, 0u);
  EXPECT_LE(static_cast<double>(ab.lost), test::stat(*l.a, "dropped_channel_lost"));
}

// channels: 0. The tuner starts from OPCN of the first RTT (10 ms: 9 channels), then the RTT rises
// to 80 ms: ACT steps down, re-extracts RTTmin and settles around OPCN(80 ms) = 13. Flows move
// between channels under load the whole time.
TEST(UdtParallel, ChannelsComeAndGoWithoutLossDuplicationOrReordering) {
  Link l;
  auto caller = parallel(TunnelRole::caller, test::kB, 31, 0);
  caller.tuner_interval_us = 200'000;
  l.a = std::make_unique<UdtTunnelCore>(caller);
  l.b = std::make_unique<UdtTunnelCore>(parallel(TunnelRole::listener, test::kA, 32, 0));
  FlowCheck ab{6000}, ba{3000};
  std::vector<unsigned> targets;
  auto traffic = [&] {
    ab.offer(*l.a, l.now);
    ba.offer(*l.b, l.now);
    ab.collect(*l.b);
    ba.collect(*l.a);
    if (targets.empty() || targets.back() != l.a->channel_target()) targets.push_back(l.a->channel_target());
    return ab.done() && ba.done();
  };
  l.run_until(traffic, 3s);
  l.delay = 40ms;
  ASSERT_TRUE(l.run_until(traffic, 120s));
  EXPECT_EQ(ab.out_of_order + ab.lost, 0u);
  EXPECT_EQ(ba.out_of_order + ba.lost, 0u);
  std::string trace;
  for (unsigned t : targets) trace += std::to_string(t) + " ";
  std::printf("channel targets over the run: %s; flow moves %g\n", trace.c_str(), test::stat(*l.a, "flow_moves"));
  ASSERT_GE(targets.size(), 3u) << trace;
  EXPECT_EQ(targets[0], 1u);
  EXPECT_EQ(targets[1], 9u) << "OPCN(10 ms) = 2.0038 ln 10 + 4.3746 = 8.99";
  EXPECT_GT(test::stat(*l.a, "flow_moves"), 0);
  EXPECT_EQ(test::stat(*l.a, "dropped_channel_lost"), 0);
  EXPECT_EQ(test::stat(*l.b, "dropped_channel_lost"), 0);
}

}  // namespace
}  // namespace ncgw::udt
