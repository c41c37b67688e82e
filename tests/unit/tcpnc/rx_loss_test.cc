// The receiver's incoming-direction loss figure (stat rx_loss_rate): the meter on exact patterns,
// and two cores with every 10th DATA datagram dropped.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "transports/tcpnc/rx_loss.h"
#include "transports/tcpnc/tcpnc_core.h"

namespace ncgw::tcpnc {
namespace {

TEST(RxLossMeter, TenPercentGapsThenForgetsOutsideTheWindow) {
  RxLossMeter m;
  EXPECT_EQ(m.loss_rate(), 0.0);
  for (std::uint64_t tx = 1000; tx < 21000; ++tx)
    if (tx % 10 != 3) m.on_received(tx);
  EXPECT_EQ(m.span(), kRxLossWindow);
  EXPECT_NEAR(m.loss_rate(), 0.10, 0.001);  // 409 or 410 holes in 4096
  for (std::uint64_t tx = 21000; tx < 21000 + kRxLossWindow; ++tx) m.on_received(tx);
  EXPECT_EQ(m.loss_rate(), 0.0);  // the lossy numbers left the window
}

TEST(RxLossMeter, LateArrivalFillsItsHoleAndRepeatsCountOnce) {
  RxLossMeter m;
  for (std::uint64_t tx = 0; tx < 100; ++tx)
    if (tx != 50) m.on_received(tx);
  EXPECT_NEAR(m.loss_rate(), 0.01, 1e-12);
  m.on_received(99);  // repeat
  EXPECT_NEAR(m.loss_rate(), 0.01, 1e-12);
  m.on_received(50);  // late, within the window
  EXPECT_EQ(m.loss_rate(), 0.0);
  m.on_received(100 + 2 * kRxLossWindow);  // a jump past the window
  EXPECT_EQ(m.span(), kRxLossWindow);
  EXPECT_NEAR(m.loss_rate(), 1.0 - 1.0 / kRxLossWindow, 1e-12);
  m.on_received(5);  // older than the window: ignored
  EXPECT_NEAR(m.loss_rate(), 1.0 - 1.0 / kRxLossWindow, 1e-12);
  m.clear();
  EXPECT_EQ(m.span(), 0u);
}

// A named stat of a core (-1 if absent).
double stat(const TcpncCore& c, const std::string& name) {
  for (const auto& e : c.stats())
    if (e.name == name) return e.value;
  return -1.0;
}

TEST(RxLossMeter, ReceiverReportsTheIncomingHopsLoss) {
  std::printf("seed=none (every 10th DATA datagram A -> B dropped)\n");
  TcpncCoreSettings s;
  s.cwnd_max_packets = 64;
  TcpncCore a(s, 1), b(s, 2);
  std::vector<std::uint8_t> buf(2048), pkt(1200, 0x5A);
  std::uint64_t data = 0;
  std::int64_t t = 0;
  for (int i = 0; i < 500; ++i) {
    const TimePoint now = transport::time_from_ns(t += 200'000);
    while (a.send(pkt, now) == transport::SendResult::accepted) {}
    for (int round = 0; round < 4; ++round) {
      while (auto n = a.poll_transmit(buf, now)) {
        if (peek_type({buf.data(), *n}) == PacketType::kData && ++data % 10 == 0) continue;
        b.on_datagram({buf.data(), *n}, now);
      }
      while (auto n = b.poll_transmit(buf, now)) a.on_datagram({buf.data(), *n}, now);
      while (b.poll_deliver(buf)) {}
    }
    for (TcpncCore* c : {&a, &b})
      if (auto d = c->next_deadline(); d && *d <= now) c->on_timeout(now);
  }
  const double rx = stat(b, "rx_loss_rate");
  std::printf("DATA sent %llu, B rx_loss_rate %.4f, A's sender estimate loss_rate_long %.4f\n",
              static_cast<unsigned long long>(data), rx, stat(a, "loss_rate_long"));
  ASSERT_GT(data, 2 * kRxLossWindow);
  EXPECT_NEAR(rx, 0.10, 0.005);
  EXPECT_EQ(stat(a, "rx_loss_rate"), 0.0);  // nothing lost B -> A (B sends no DATA)
}

}  // namespace
}  // namespace ncgw::tcpnc
