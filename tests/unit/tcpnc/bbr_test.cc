// Unit tests of the model-based controller's parts, driven by scripted time: the windowed max
// filter, delivery-rate sampling, the pacer, CoDel, and the BbrController state machine (start-up
// ends on a rate plateau, drains, cruises at the path's rate; link loss corrects the rate; a coding
// window that needs a retransmission does not cut the rate; excess loss in two rounds in a row ends
// start-up, in one round it does not; a rate found application-limited is probed again by start-up
// once it limits the sender).
#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <utility>

#include "transports/common/windowed_filter.h"
#include "transports/common/bbr.h"
#include "transports/tcpnc/codel.h"
#include "transports/tcpnc/congestion_controller.h"
#include "transports/common/delivery_rate.h"
#include "transports/tcpnc/pacer.h"

namespace ncgw::tcpnc {
namespace {

using namespace std::chrono_literals;
using transport::BbrController;

TimePoint at(Duration d) { return TimePoint(d); }

TEST(WindowedFilter, KeepsTheMaximumForTheWindowThenForgetsIt) {
  transport::WindowedFilter<double> f(10);
  f.update(5, 0);
  f.update(3, 1);
  EXPECT_EQ(f.best(), 5);
  f.update(4, 5);
  EXPECT_EQ(f.best(), 5);
  f.update(2, 11);  // 5 (t=0) is older than 10 units now: the next best takes over
  EXPECT_EQ(f.best(), 4);
  f.update(9, 12);
  EXPECT_EQ(f.best(), 9);
}

TEST(DeliveryRate, RateOfAnAckClockedFlowIsItsAckRate) {
  // One transmission every 2 ms, each acknowledged 50 ms after it left: 500 per second once the
  // first round trip is over (the first round's samples span the RTT too, and are lower).
  DeliveryRateSampler s;
  std::vector<DeliverySnapshot> snaps;
  std::optional<RateSample> last;
  std::uint32_t in_flight = 0;
  for (int t = 0; t <= 400; t += 2) {
    if (t >= 50) {
      s.on_acked(snaps[(t - 50) / 2], at(t * 1ms));
      --in_flight;
      last = s.finish(10ms);
    }
    snaps.push_back(s.on_sent(at(t * 1ms), in_flight++));
  }
  ASSERT_TRUE(last);
  EXPECT_TRUE(last->valid);
  EXPECT_NEAR(last->rate(), 500.0, 1.0);
  EXPECT_FALSE(last->app_limited);
}

TEST(DeliveryRate, CountsLossesInTheInterval) {
  DeliveryRateSampler s;
  const DeliverySnapshot a = s.on_sent(at(0ms), 0);
  s.on_lost();
  s.on_lost();
  s.on_acked(a, at(40ms));
  const auto r = s.finish(1ms);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->lost, 2u);
  EXPECT_EQ(r->delivered, 1u);
}

TEST(Pacer, BurstAllowanceThenOneIntervalApart) {
  Pacer p;
  const double rate = 1000;  // 1 ms apart; after idle, a credit of max(2, rate x 1 ms) = 2 more
  int burst = 0;
  while (p.may_send(at(100ms), rate)) {
    p.on_sent(at(100ms), rate);
    ++burst;
  }
  EXPECT_EQ(burst, 3);
  EXPECT_EQ(p.next(rate), at(101ms));
  p.on_sent(at(101ms), rate);
  EXPECT_EQ(p.next(rate), at(102ms));
  EXPECT_TRUE(p.may_send(at(100ms), 0.0));  // unpaced
}

TEST(Pacer, ANewRateAppliesToTheNextTransmission) {
  Pacer p;
  p.on_sent(at(100ms), 10);               // 100 ms apart at 10/s
  EXPECT_FALSE(p.may_send(at(101ms), 10));
  EXPECT_EQ(p.next(10), at(200ms));
  EXPECT_TRUE(p.may_send(at(101ms), 1000));  // 1 ms apart at 1000/s: due already
  EXPECT_EQ(p.next(1000), at(101ms));
}

TEST(Codel, DropsOnlyAfterTheSojournStayedAboveTargetForAnInterval) {
  Codel c;
  const Duration target = 5ms, interval = 100ms;
  EXPECT_FALSE(c.should_drop(at(0ms), at(4ms), 10, target, interval));    // below target
  EXPECT_FALSE(c.should_drop(at(0ms), at(10ms), 10, target, interval));   // above: interval starts
  EXPECT_FALSE(c.should_drop(at(50ms), at(100ms), 10, target, interval)); // not yet an interval
  EXPECT_TRUE(c.should_drop(at(60ms), at(111ms), 10, target, interval));  // an interval above
  EXPECT_FALSE(c.should_drop(at(70ms), at(112ms), 10, target, interval)); // next drop one interval later
  EXPECT_FALSE(c.should_drop(at(150ms), at(210ms), 10, target, interval));
  EXPECT_TRUE(c.should_drop(at(150ms), at(211ms), 10, target, interval));
  EXPECT_FALSE(c.should_drop(at(200ms), at(281ms), 10, target, interval)); // then interval / sqrt(2)
  EXPECT_TRUE(c.should_drop(at(200ms), at(282ms), 10, target, interval));
  EXPECT_FALSE(c.should_drop(at(282ms), at(284ms), 10, target, interval)); // sojourn fell: stop
  EXPECT_FALSE(c.dropping());
  EXPECT_EQ(c.drops(), 3u);
  EXPECT_FALSE(c.should_drop(at(0ms), at(900ms), 1, target, interval));   // one packet: never
}

// Drives a BbrController over a saturated path of `rate` transmissions per second and round trip
// `rtt` that loses a share `loss` of them after the bottleneck: every millisecond the path carries
// rate / 1000 transmissions, and each is acknowledged (or found lost) one RTT after it left. The
// controller sees one ACK event per millisecond; what is in flight is reported just under the BDP.
struct ScriptedPath {
  double rate = 1000;
  Duration rtt = 50ms;
  double loss = 0;
  Duration queue_delay{};      // added to every RTT sample from `queue_from` on
  Duration queue_from{};
  bool app_limited = false;    // the sender has less to send than it may (marked before each send)
  bool entrance_held = false;  // every ACK event reports packets held at the sender's entrance
  double in_flight_bdps = 0.9; // what every ACK event reports in flight, in BDPs
  double burst_loss = 0;       // a further share lost of what is sent in [burst_from, burst_until)
  Duration burst_from{}, burst_until{};
  DeliveryRateSampler sampler;
  std::deque<std::pair<DeliverySnapshot, bool>> flight;  // snapshot, will be lost
  double send_carry = 0, loss_carry = 0;
  TimePoint now{};

  void run(BbrController& cc, Duration duration) {
    const TimePoint end = now + duration;
    while (now < end) {
      now += 1ms;
      AckEvent e;
      e.now = now;
      while (!flight.empty() && flight.front().first.sent + rtt <= now) {
        if (flight.front().second) {
          sampler.on_lost();
          ++e.lost;
        } else {
          sampler.on_acked(flight.front().first, now);
          ++e.acked;
        }
        flight.pop_front();
      }
      e.sample = sampler.finish(rtt / 2);
      e.rtt = rtt + (now.time_since_epoch() >= queue_from ? queue_delay : Duration::zero());
      e.srtt = *e.rtt;
      e.in_flight = static_cast<std::uint32_t>(in_flight_bdps * rate * std::chrono::duration<double>(rtt).count());
      e.delivered = sampler.delivered();
      e.entrance_held = entrance_held;
      cc.on_ack(e);
      for (send_carry += rate / 1000.0; send_carry >= 1; send_carry -= 1) {
        const Duration t = now.time_since_epoch();
        loss_carry += loss + (t >= burst_from && t < burst_until ? burst_loss : 0.0);
        const bool lost = loss_carry >= 1;
        if (lost) loss_carry -= 1;
        if (app_limited) sampler.mark_app_limited(static_cast<std::uint32_t>(flight.size()));
        flight.emplace_back(sampler.on_sent(now, static_cast<std::uint32_t>(flight.size())), lost);
      }
    }
  }
};

TEST(BbrController, StartupEndsOnAPlateauAndCruisesAtThePathRate) {
  BbrController cc({CcAlgorithm::kBbr, 10, 8192, 1});
  ScriptedPath p;
  p.run(cc, 3s);
  EXPECT_EQ(cc.mode(), BbrController::Mode::kProbeBw);
  EXPECT_NEAR(cc.bw(), 1000, 30);
  EXPECT_NEAR(cc.bdp(), 50, 2);
  EXPECT_GE(cc.cwnd(), 2 * 50 - 1);
  EXPECT_LE(cc.pacing_rate(), 1.25 * 1030);
  EXPECT_GE(cc.pacing_rate(), 0.75 * 0.99 * 1000 - 1);
}

TEST(BbrController, PacingDelayIsBoundedAndThePathNotFilledInStartupOnly) {
  BbrController cc({CcAlgorithm::kBbr, 10, 8192, 1});
  ScriptedPath p;
  p.run(cc, 100ms);
  ASSERT_EQ(cc.mode(), BbrController::Mode::kStartup);
  EXPECT_EQ(cc.max_pacing_delay(), 1ms);
  EXPECT_FALSE(cc.path_filled());
  p.run(cc, 3s);
  ASSERT_EQ(cc.mode(), BbrController::Mode::kProbeBw);
  EXPECT_EQ(cc.max_pacing_delay(), Duration::zero());
  EXPECT_TRUE(cc.path_filled());
}

TEST(BbrController, StartupOfAnApplicationLimitedTunnelEndsOnAStandingQueue) {
  // The end hosts offer less than the window allows (every sample application-limited: no plateau
  // is ever judged) and their own bursts keep a queue standing from 1 s on: start-up must end
  // rather than pass their bursts on at the start-up gain for ever.
  BbrController cc({CcAlgorithm::kBbr, 10, 8192, 6});
  ScriptedPath p;
  p.app_limited = true;
  p.run(cc, 1s);
  EXPECT_EQ(cc.mode(), BbrController::Mode::kStartup);
  p.queue_delay = 30ms;
  p.queue_from = 1s;
  p.run(cc, 500ms);
  EXPECT_NE(cc.mode(), BbrController::Mode::kStartup);
  EXPECT_LE(cc.pacing_rate(), 1.25 * 1030);
}

TEST(BbrController, StartupRunsAgainWhenARateFoundApplicationLimitedLimitsTheSender) {
  // The tunnel first carries a sparse flow (an ACK stream: 200 per second, every sample
  // application-limited) while a queue in the other direction stands in its RTT: start-up ends on
  // that queue with the rate at 200. Then the end hosts offer more than that (a download starts):
  // packets wait at the sender's entrance, and start-up must run again rather than probe up from
  // 200 by a quarter every eight round trips.
  BbrController cc({CcAlgorithm::kBbr, 10, 8192, 6});
  ScriptedPath p;
  p.rate = 200;
  p.app_limited = true;
  p.queue_delay = 30ms;
  p.queue_from = 500ms;
  p.run(cc, 1500ms);
  ASSERT_NE(cc.mode(), BbrController::Mode::kStartup);
  EXPECT_NEAR(cc.bw(), 200, 20);
  p.run(cc, 1s);  // still application-limited: no restart
  EXPECT_EQ(cc.startup_restarts(), 0u);
  p.app_limited = false;
  p.entrance_held = true;
  bool restarted = false;
  for (int ms = 0; ms < 300 && !restarted; ms += 10) {  // a round trip is 80 ms now
    p.run(cc, 10ms);
    restarted = cc.mode() == BbrController::Mode::kStartup;
  }
  ASSERT_TRUE(restarted);
  EXPECT_EQ(cc.startup_restarts(), 1u);
  EXPECT_GT(cc.pacing_rate(), 2 * cc.bw());
  // The rate stays at 200 (here that is the path's): start-up ends on the plateau, the rate now
  // measured, and being held by it does not start start-up again.
  p.run(cc, 3s);
  EXPECT_EQ(cc.mode(), BbrController::Mode::kProbeBw);
  EXPECT_EQ(cc.startup_restarts(), 1u);
}

TEST(BbrController, OneRoundOfExcessLossDoesNotEndStartupTwoInARowDo) {
  // Application-limited, so no plateau is judged and only loss can end start-up. A burst of link
  // loss (5 of the 50 transmissions of one round, as a Gilbert-Elliott bad state gives) exceeds
  // the young loss estimate in one round and is counted, but start-up goes on; loss in two rounds
  // in a row (start-up's overshoot overflowing a queue) ends it.
  for (const Duration lossy : {5ms, 120ms}) {
    BbrController cc({CcAlgorithm::kBbr, 10, 8192, 7});
    ScriptedPath p;
    p.app_limited = true;
    p.burst_loss = lossy == 5ms ? 1.0 : 0.25;
    p.burst_from = 300ms;
    p.burst_until = 300ms + lossy;
    p.run(cc, 1s);
    EXPECT_GE(cc.events(), 1u) << "loss for " << std::chrono::duration_cast<std::chrono::milliseconds>(lossy).count()
                               << " ms";
    if (lossy == 5ms) {
      EXPECT_EQ(cc.mode(), BbrController::Mode::kStartup);
    } else {
      EXPECT_NE(cc.mode(), BbrController::Mode::kStartup);
    }
  }
}

TEST(BbrController, ARoundThatLosesFarMoreThanTheLinkEndsStartupAtOnce) {
  // Start-up's overshoot overflowing a one-BDP queue: 40 % of one round of 500 transmissions lost
  // (10,000 per second, 50 ms RTT) on a link that loses 1 %. No link-loss burst comes near that, and
  // a second round of it would lose about a BDP more: start-up ends after the one round.
  BbrController cc({CcAlgorithm::kBbr, 10, 8192, 7});
  ScriptedPath p;
  p.rate = 10'000;
  p.loss = 0.01;
  p.app_limited = true;  // no plateau judged: only loss can end start-up
  p.burst_loss = 0.4;
  p.burst_from = 400ms;
  p.burst_until = 450ms;
  p.run(cc, 400ms);
  ASSERT_EQ(cc.mode(), BbrController::Mode::kStartup);
  p.run(cc, 110ms);  // the lossy round is acknowledged by 500 ms
  EXPECT_NE(cc.mode(), BbrController::Mode::kStartup);
  EXPECT_EQ(cc.events(), 1u);  // one excess round
}

TEST(BbrController, DrainHoldingPacketsDoesNotStartStartupAgain) {
  // Start-up ends on a standing queue with application-limited samples (the rate not measured),
  // and Drain then paces below that rate, holding the input at the entrance: that holding is
  // Drain's own doing, no sign that the rate limits the sender.
  BbrController cc({CcAlgorithm::kBbr, 10, 8192, 6});
  ScriptedPath p;
  p.app_limited = true;
  p.queue_delay = 30ms;
  p.queue_from = 300ms;
  p.in_flight_bdps = 2.0;  // Drain lasts until in flight falls to a BDP
  while (cc.mode() == BbrController::Mode::kStartup && p.now.time_since_epoch() < 2s) p.run(cc, 1ms);
  ASSERT_EQ(cc.mode(), BbrController::Mode::kDrain);
  p.entrance_held = true;
  p.app_limited = false;
  p.run(cc, 500ms);  // six round trips, in Drain throughout
  EXPECT_EQ(cc.mode(), BbrController::Mode::kDrain);
  EXPECT_EQ(cc.startup_restarts(), 0u);
}

TEST(BbrController, LinkLossAfterTheBottleneckIsAddedBackToTheRate) {
  BbrController cc({CcAlgorithm::kBbr, 10, 8192, 2});
  ScriptedPath p;
  p.rate = 10000;  // 9 delivered and 1 lost per millisecond
  p.loss = 0.10;
  p.run(cc, 5s);
  EXPECT_NEAR(cc.link_loss(), 0.10, 0.02);
  EXPECT_NEAR(cc.bw(), 10000, 400);  // not 9000: the link carried the lost ones too
  EXPECT_EQ(cc.mode(), BbrController::Mode::kProbeBw);
}

TEST(BbrController, CodingWindowFailuresDoNotCutTheRate) {
  BbrController cc({CcAlgorithm::kBbr, 10, 8192, 3});
  ScriptedPath p;
  p.run(cc, 3s);
  const double bw = cc.bw(), cwnd = cc.cwnd();
  for (int i = 0; i < 50; ++i) cc.on_cw_failure(p.now, p.now);
  EXPECT_EQ(cc.bw(), bw);
  EXPECT_EQ(cc.cwnd(), cwnd);
  EXPECT_EQ(cc.events(), 0u);
}

TEST(BbrController, TimeoutHoldsTheMinimumWindowUntilNewDataIsAcknowledged) {
  BbrController cc({CcAlgorithm::kBbr, 10, 8192, 4});
  ScriptedPath p;
  p.run(cc, 3s);
  const double cwnd = cc.cwnd();
  cc.on_rto(p.now);
  EXPECT_EQ(cc.cwnd(), 4);
  EXPECT_EQ(cc.events(), 1u);
  p.run(cc, 10ms);
  EXPECT_GE(cc.cwnd(), std::min(cwnd, 2 * cc.bdp()));
}

TEST(BbrController, WindowNeverExceedsTheCap) {
  BbrController cc({CcAlgorithm::kBbr, 10, 64, 5});
  ScriptedPath p;
  p.rate = 100000;
  p.run(cc, 2s);
  EXPECT_LE(cc.cwnd(), 64);
}

}  // namespace
}  // namespace ncgw::tcpnc
