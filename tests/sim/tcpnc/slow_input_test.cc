// Input well below the path's rate in small groups, as a window-limited end host's ACK clock
// releases it: a bulk transfer first (so the path rate and the loss estimate are known), then
// groups of two packets every 4 ms (500 packets/s on a path that drains about 1,700) over a
// 20 Mbit/s, 60 ms RTT path with 5 % random loss. A CW then waits four of the input's packet
// times for more sources instead of closing at every gap, but lasts no longer than twice what a
// full CW lasts at the path rate; nothing is lost, duplicated or reordered either way.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/sim/tcpnc/harness.h"

namespace ncgw::tcpnc::simtest {
namespace {

constexpr std::uint64_t kBulk = 3000;    // a transfer first: path rate and loss estimate known
constexpr std::uint64_t kGroups = 1000;  // then groups of kGroupSize every kGroupGap
constexpr std::uint64_t kGroupSize = 2;
constexpr auto kGroupGap = 4ms;
constexpr auto kOneWay = 30ms;

// kBulk packets offered as fast as the core takes them, then kGroups groups of kGroupSize packets
// kGroupGap apart (packets within a group back to back), one numbered stream.
class BulkThenGroups : public sim::Source {
 public:
  void pump(transport::Core& core, TimePoint now) override {
    while (seq_ < kBulk + kGroups * kGroupSize) {
      if (seq_ >= kBulk && (seq_ - kBulk) % kGroupSize == 0 && !in_group_) {
        if (!next_group_) next_group_ = now + kGroupGap;
        if (now < *next_group_) return;
        *next_group_ += kGroupGap;
        in_group_ = true;
      }
      sim::stamp_source_packet(buf_, 1, seq_, now);
      if (core.send(buf_, now) != transport::SendResult::accepted) return;
      ++seq_;
      if (seq_ > kBulk && (seq_ - kBulk) % kGroupSize == 0) in_group_ = false;
    }
  }
  std::optional<TimePoint> next_time() const override {
    return seq_ >= kBulk && seq_ < kBulk + kGroups * kGroupSize ? next_group_ : std::nullopt;
  }

 private:
  std::vector<std::uint8_t> buf_ = std::vector<std::uint8_t>(1200);
  std::uint64_t seq_ = 0;
  bool in_group_ = false;
  std::optional<TimePoint> next_group_;
};

TEST(TcpncSlowInput, GroupsBetweenShortPausesShareACwOfBoundedAge) {
  auto sim = std::make_unique<Simulation>(8301);
  for (Side side : {Side::a, Side::b}) {
    sim->set_core(side, std::make_unique<TcpncCore>(TcpncCoreSettings{}, sim->seed_for(side == Side::a ? 11 : 12)));
    sim::Link& l = sim->link_from(side);
    l.add<sim::Bottleneck>(20e6, 28, 250);  // two BDPs of queue, as in the idle test
    if (side == Side::a) l.add<sim::BernoulliLoss>(0.05, sim->seed_for(21));
    l.add<sim::Delay>(kOneWay);
  }
  sim->set_source(Side::a, std::make_unique<BulkThenGroups>());
  sim::Sink& sink = sim->ep(Side::b).sink;
  sink.set_allow_gaps(true);  // the bulk phase overruns the entrance; its AQM drops are counted
  sim->run_until([&] { return sink.expected() >= kBulk; }, sim->now() + 30s);
  const transport::Core& a = *sim->ep(Side::a).core;
  const double sources0 = stat(a, "sources_sent"), repairs0 = stat(a, "repairs_sent");
  const double idle0 = stat(a, "idle_cws"), aged0 = stat(a, "aged_cws"), fail0 = stat(a, "cw_failures");
  sink.reset_delays();
  ASSERT_TRUE(sim->run_until([&] { return sink.expected() >= kBulk + kGroups * kGroupSize; }, sim->now() + 60s));
  const double sources = stat(a, "sources_sent") - sources0, repairs = stat(a, "repairs_sent") - repairs0;
  const double closed_early = stat(a, "idle_cws") - idle0, aged = stat(a, "aged_cws") - aged0;
  std::printf("groups of %llu every 4 ms, path %.0f/s: %.0f sources in %.0f CWs closed early (%.0f by age), "
              "%.2f sources per CW, %.3f repairs per source, CW failures %.0f, delay p97 / max %.0f / %.0f ms\n",
              static_cast<unsigned long long>(kGroupSize), stat(a, "path_rate_pps"), sources, closed_early, aged,
              sources / closed_early, repairs / sources, stat(a, "cw_failures") - fail0, sink.delay_quantile_ms(0.97),
              sink.max_delay_ms());
  EXPECT_EQ(sink.errors(), 0u) << sink.first_error();
  EXPECT_EQ(sink.gaps(), static_cast<std::uint64_t>(stat(a, "aqm_drops")));  // none in the groups phase
  // Closed at every gap (before), each group had a CW of its own: 2.01 sources per CW, 0.73
  // repairs per source, CW failures 6, delay p97 86 ms.
  EXPECT_GE(sources / closed_early, 6.0);
  EXPECT_LT(repairs / sources, 0.5);
  // Once the input's mean rate is known the pauses no longer close them, their age does (about
  // 30 ms here): a lost source waits at most that long plus the path for its CW's repairs.
  EXPECT_GT(aged, 0);
  EXPECT_LT(sink.delay_quantile_ms(0.97), 30 + 30 + 15);
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
