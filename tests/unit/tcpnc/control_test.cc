// Unit tests of RTT/RTO (RFC 6298 with a floor), congestion control and the packet queue.
#include <gtest/gtest.h>

#include <vector>

#include "transports/tcpnc/congestion.h"
#include "transports/tcpnc/packet_queue.h"
#include "transports/tcpnc/rtt.h"
#include "transports/tcpnc/settings.h"

namespace ncgw::tcpnc {
namespace {

using namespace std::chrono_literals;

TimePoint at_ms(int ms) { return transport::time_from_ns(static_cast<std::int64_t>(ms) * 1'000'000); }

TEST(RttTest, Rfc6298UpdatesFloorAndBackoff) {
  RttEstimator r(200ms, 60s, 1s);
  EXPECT_EQ(r.rto(), 1s);
  r.on_sample(100ms, 0ms);
  EXPECT_EQ(r.srtt(), 100ms);
  EXPECT_EQ(r.rttvar(), 50ms);
  EXPECT_EQ(r.rto(), 300ms);  // 100 + 4 x 50
  r.on_sample(200ms, 0ms);
  EXPECT_EQ(r.rttvar(), 62500us);  // 3/4 x 50 + 1/4 x 100
  EXPECT_EQ(r.srtt(), 112500us);   // 7/8 x 100 + 1/8 x 200
  for (int i = 0; i < 50; ++i) r.on_sample(20ms, 0ms);
  EXPECT_EQ(r.rto(), 200ms);  // floor
  r.backoff();
  r.backoff();
  EXPECT_EQ(r.rto(), 800ms);
  r.reset_backoff();
  EXPECT_EQ(r.rto(), 200ms);
}

TEST(RttTest, AckDelayIsSubtractedOnlyAboveTheMinimum) {
  RttEstimator r(1ms, 60s, 1s);
  r.on_sample(50ms, 10ms);  // first sample: min_rtt = 50, 40 < 50 so not subtracted
  EXPECT_EQ(r.latest(), 50ms);
  r.on_sample(80ms, 10ms);
  EXPECT_EQ(r.latest(), 70ms);
}

TEST(CongestionTest, SlowStartThenHalvingOncePerRecovery) {
  CongestionControl cc(CcAlgorithm::kNewReno, 10, 64);
  for (int i = 0; i < 20; ++i) cc.on_ack(1, at_ms(0), at_ms(1), 20ms);
  EXPECT_EQ(cc.cwnd(), 30);
  EXPECT_TRUE(cc.on_congestion_event(at_ms(5), at_ms(10)));
  EXPECT_EQ(cc.cwnd(), 15);
  EXPECT_FALSE(cc.on_congestion_event(at_ms(8), at_ms(12)));  // sent before recovery began
  EXPECT_EQ(cc.cwnd(), 15);
  cc.on_ack(1, at_ms(9), at_ms(13), 20ms);  // no growth for what was sent before
  EXPECT_EQ(cc.cwnd(), 15);
  cc.on_ack(15, at_ms(11), at_ms(30), 20ms);  // congestion avoidance: +1 per window
  EXPECT_EQ(cc.cwnd(), 16);
  EXPECT_TRUE(cc.on_congestion_event(at_ms(20), at_ms(40)));
  EXPECT_EQ(cc.cwnd(), 8);
  EXPECT_EQ(cc.events(), 2u);
}

TEST(CongestionTest, CapAndTimeout) {
  CongestionControl cc(CcAlgorithm::kNewReno, 10, 64);
  for (int i = 0; i < 200; ++i) cc.on_ack(1, at_ms(0), at_ms(1), 20ms);
  EXPECT_EQ(cc.cwnd(), 64);
  cc.on_rto(at_ms(100));
  EXPECT_EQ(cc.cwnd(), 1);
  EXPECT_EQ(cc.ssthresh(), 32);
}

TEST(CongestionTest, CubicRegrowsTowardsWmax) {
  CongestionControl cc(CcAlgorithm::kCubic, 10, 1000);
  for (int i = 0; i < 90; ++i) cc.on_ack(1, at_ms(0), at_ms(1), 20ms);
  ASSERT_EQ(cc.cwnd(), 100);
  cc.on_congestion_event(at_ms(1), at_ms(2));
  EXPECT_DOUBLE_EQ(cc.cwnd(), 70);  // beta 0.7
  int t = 3;
  for (int rtt = 0; rtt < 300 && cc.cwnd() < 100; ++rtt, t += 20)
    for (int i = 0; i < static_cast<int>(cc.cwnd()); ++i) cc.on_ack(1, at_ms(t), at_ms(t + 20), 20ms);
  EXPECT_GE(cc.cwnd(), 100);
  EXPECT_LT(t, 3 + 20 * 300);
}

TEST(PacketQueueTest, FifoBoundedNoResize) {
  PacketQueue q(3, 10);
  std::vector<std::uint8_t> a{1, 2}, b{3}, c{4, 5, 6}, big(11, 0);
  EXPECT_TRUE(q.push(a));
  EXPECT_TRUE(q.push(b));
  EXPECT_TRUE(q.push(c));
  EXPECT_FALSE(q.push(a));
  EXPECT_EQ(std::vector<std::uint8_t>(q.front().begin(), q.front().end()), a);
  q.pop();
  EXPECT_TRUE(q.push(a));
  EXPECT_FALSE(q.push(big));
  q.pop();
  EXPECT_EQ(std::vector<std::uint8_t>(q.front().begin(), q.front().end()), c);
  EXPECT_EQ(q.size(), 2u);
}

TEST(SettingsTest, BuffersFollowPaper002) {
  TcpncCoreSettings s;
  s.cwnd_max_packets = 63;
  s.r_max = 1.5;
  EXPECT_EQ(effective_link_buffer(s), 95u);  // ceil(1.5 x 63)
  EXPECT_EQ(effective_sending_buffer(s), 158u);
  s.link_buffer_packets = 100;
  EXPECT_EQ(effective_sending_buffer(s), 163u);  // paper 002: 63 + 100 (it used 64 + 100)
  s.sending_buffer_packets = 500;
  EXPECT_EQ(effective_sending_buffer(s), 500u);
}

}  // namespace
}  // namespace ncgw::tcpnc
