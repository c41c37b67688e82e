// PaUDT's window rule driven by scripted ACKs and NAKs: the trace paper 000 describes with its
// Figure 1 (initial window 16, slow start stops at 16, additive growth to 24, three NAKs set the
// threshold to 12 and the window to it), and what does not count as a new decrease.
#include <gtest/gtest.h>

#include "transports/udt/paudt_cc.h"
#include "transports/udt/rate_control.h"
#include "transports/udt/seq.h"

namespace ncgw::udt {
namespace {

// A sender that keeps the window full: each round acknowledges one window of packets.
struct Driver {
  PaudtCc cc;
  std::int32_t sent = 999;  // last sequence number sent (ISN 1000)
  std::int32_t acked = 1000;  // next sequence number the receiver expects

  // Sends what the window allows, then acknowledges all of it in one full ACK.
  void round() {
    const auto window = static_cast<std::int32_t>(cc.cwnd());
    sent = seq::add(acked, window - 1);
    cc.set_snd_curr_seq(sent);
    acked = seq::inc(sent);
    cc.on_ack(acked);
  }
};

TEST(PaudtCc, FollowsFigureOneOfThePaper) {
  Driver d;
  d.cc.init(d.sent, 8192, 16);
  EXPECT_EQ(d.cc.cwnd(), 16);
  EXPECT_EQ(d.cc.ssthresh(), 16);
  EXPECT_FALSE(d.cc.slow_start());  // the window has reached the threshold: avoidance from here
  int rounds = 0;
  while (d.cc.cwnd() < 24) {
    d.round();
    ++rounds;
  }
  // Additive: just under one packet per round trip (whole packets per round), 16 -> 24 in 8-9.
  EXPECT_GE(rounds, 8);
  EXPECT_LE(rounds, 9);
  const double peak = d.cc.cwnd();
  EXPECT_LT(peak, 25);
  // The network blocks at 24: three NAKs for packets of the last window.
  d.cc.set_snd_curr_seq(seq::add(d.sent, 24));
  d.cc.on_loss(seq::add(d.sent, 2));
  d.cc.on_loss(seq::add(d.sent, 5));
  EXPECT_EQ(d.cc.cwnd(), peak);  // two NAKs: nothing yet
  d.cc.on_loss(seq::add(d.sent, 9));
  EXPECT_EQ(d.cc.ssthresh(), peak / 2);  // 12 (and a fraction) from 24
  EXPECT_GE(d.cc.ssthresh(), 12);
  EXPECT_EQ(d.cc.cwnd(), d.cc.ssthresh());
  EXPECT_EQ(d.cc.decreases(), 1u);
  // NAKs for packets sent before the decrease do not decrease again.
  for (int i = 0; i < 6; ++i) d.cc.on_loss(seq::add(d.sent, 10 + i));
  EXPECT_EQ(d.cc.decreases(), 1u);
  // The recovered window's ACK does not grow the window; then additive increase again from 12.
  d.sent = seq::add(d.sent, 24);
  d.acked = seq::inc(d.sent);
  const double after = d.cc.cwnd();
  d.cc.on_ack(d.acked);
  EXPECT_EQ(d.cc.cwnd(), after);
  d.round();
  EXPECT_GT(d.cc.cwnd(), after + 0.9);
  EXPECT_LE(d.cc.cwnd(), after + 1);
}

TEST(PaudtCc, SlowStartBelowTheThresholdDoublesPerRound) {
  Driver d;
  d.cc.init(d.sent, 8192, 16);
  for (int i = 0; i < 3; ++i) {  // drive the window down to 4 with timeouts: 16 -> 8 -> 4 ...
    d.cc.set_snd_curr_seq(seq::add(d.sent, 100 * (i + 1)));
    d.cc.on_timeout();
  }
  EXPECT_EQ(d.cc.ssthresh(), 2);
  EXPECT_EQ(d.cc.cwnd(), 2);
  EXPECT_FALSE(d.cc.slow_start());
}

TEST(PaudtCc, WindowNeverExceedsTheFlowWindowAndPacesOverTheRtt) {
  Driver d;
  d.cc.init(d.sent, 20, 16);
  d.cc.set_rtt(100'000);
  for (int i = 0; i < 50; ++i) d.round();
  EXPECT_EQ(d.cc.cwnd(), 20);
  EXPECT_DOUBLE_EQ(d.cc.period_us(), 5000);  // 20 packets over 100 ms
}

TEST(RateControl, SelectsTheControllerAndTheInitialWindow) {
  RateControl r;
  r.init({CcKind::udt4, 999, 8192, 1500, 32, {}, 1, 5});
  EXPECT_EQ(r.cwnd(), 32);
  EXPECT_TRUE(r.slow_start());
  EXPECT_EQ(r.ssthresh(), 0);
  r.init({CcKind::paudt, 999, 8192, 1500, 16, {}, 1, 5});
  EXPECT_EQ(r.cwnd(), 16);
  EXPECT_EQ(r.ssthresh(), 16);
  EXPECT_EQ(r.bbr(), nullptr);
  r.init({CcKind::bbr, 999, 8192, 1500, 24, {}, 1, 5, 1024});
  EXPECT_EQ(r.cwnd(), 24);
  EXPECT_TRUE(r.slow_start());
  ASSERT_NE(r.bbr(), nullptr);
}

}  // namespace
}  // namespace ncgw::udt
