// Sender control loops over the in-memory network, in virtual time: the reaction to a congestion
// warning (type 4), the EXP timer's backoff intervals, and the flow window of a receiver that
// stops reading.
#include <gtest/gtest.h>

#include <cmath>

#include <algorithm>

#include "pair.h"
#include "transports/udt/packet.h"
#include "transports/udt/seq.h"

namespace ncgw::udt {
namespace {

using namespace std::chrono_literals;
using test::kA;
using test::kB;
using test::Pair;
using test::pattern;
using test::pump_stream;

// True for a data packet (top bit of the first word clear).
bool is_data(const std::vector<std::uint8_t>& b) { return (b[0] & 0x80) == 0; }
// The sequence number of a data packet.
std::int32_t data_seq(const std::vector<std::uint8_t>& b) {
  return static_cast<std::int32_t>((std::uint32_t{b[0]} << 24 | std::uint32_t{b[1]} << 16 | std::uint32_t{b[2]} << 8 | b[3]) &
                                   0x7FFFFFFF);
}

// The library (core.cpp, processCtrl case 4) multiplies the sending interval by 1.125 and moves
// the last decrease point to the current sequence number; ours does the same to CUDTCC's period.
TEST(UdtControl, CongestionWarningStretchesThePeriodByOneEighth) {
  Pair p;
  ConnectionSettings s;
  transport::Rng loss(3);
  p.net.drop = [&](const PeerAddress&, const std::vector<std::uint8_t>& b) { return is_data(b) && loss.bernoulli(0.01); };
  auto [c, l] = p.connect(s);
  ASSERT_TRUE(c && l);
  const auto data = pattern(3'000'000, 4);
  ASSERT_EQ(pump_stream(p.net, c, l, data, p.net.now() + 60s).size(), data.size());
  p.net.drop = nullptr;
  ASSERT_TRUE(p.net.run_until([&] { return c->send_idle(); }, p.net.now() + 5s));
  ASSERT_FALSE(c->stats().slow_start);  // the loss ended slow start: the period is CUDTCC's
  const double before = c->stats().period_us;
  std::vector<std::uint8_t> warning(32);
  warning.resize(write_control(warning, wire::ControlType::congestion_warning, 0,
                               static_cast<std::uint32_t>(c->self_id()), {}));
  p.a.on_datagram(warning, kB, p.net.now());
  EXPECT_DOUBLE_EQ(c->stats().period_us, before * 1.125);
  p.a.on_datagram(warning, kB, p.net.now());  // every warning counts (no epoch rule)
  EXPECT_DOUBLE_EQ(c->stats().period_us, before * 1.125 * 1.125);
}

// EXP backoff: with the peer silent, the k-th expiry comes max(k (RTT + 4 RTTVar) + SYN, k x 300 ms)
// after the previous one, and each resends the unacknowledged data. `one_way` sets the RTT so that
// either term of the max decides.
void expect_exp_backoff(transport::Duration one_way) {
  Pair p;
  p.net.set_delay(one_way);
  ConnectionSettings s;
  auto [c, l] = p.connect(s);
  ASSERT_TRUE(c && l);
  ASSERT_EQ(pump_stream(p.net, c, l, pattern(200'000, 5), p.net.now() + 30s).size(), 200'000u);  // RTT samples
  ASSERT_TRUE(p.net.run_until([&] { return c->send_idle(); }, p.net.now() + 5s));
  p.net.run_until([] { return false; }, p.net.now() + 4 * one_way);  // let ACK2s and ACKs settle
  // silence b; record when a resends its highest sequence number (once per expiry)
  std::int32_t highest = 0;
  bool sent_new = false;
  std::vector<transport::TimePoint> resends;
  p.net.drop = [&](const PeerAddress& from, const std::vector<std::uint8_t>& b) {
    if (from == kB) return true;
    if (!is_data(b)) return false;
    const std::int32_t sq = data_seq(b);
    if (!sent_new || seq::cmp(sq, highest) > 0) {
      highest = sent_new ? seq::max(highest, sq) : sq;
      sent_new = true;
    } else if (sq == highest) {
      resends.push_back(p.net.now());
    }
    return false;
  };
  const double rtt = c->stats().rtt_us, var = c->stats().rtt_var_us;  // frozen from now on
  ASSERT_EQ(c->send_stream(pattern(5000, 6), p.net.now()), 5000u);
  p.net.run_until([&] { return resends.size() >= 6; }, p.net.now() + 60s);
  ASSERT_GE(resends.size(), 6u);
  ASSERT_EQ(c->stats().rtt_us, rtt);
  // The k-th expiry's interval; the count the first resend left behind is 2, or more where the
  // idle time before the silence had expiries of its own (keep-alives): it is the count whose
  // interval the first gap matches, and each later gap must then match the next count.
  auto interval_us = [&](double k) { return std::max(k * (rtt + 4 * var) + wire::kSynUs, k * wire::kMinExpUs); };
  auto gap_us = [&](std::size_t i) { return std::chrono::duration<double, std::micro>(resends[i] - resends[i - 1]).count(); };
  double first = 2;
  while (first < 4 && std::abs(gap_us(1) - interval_us(first)) > 100) ++first;
  std::printf("[exp] the first gap began at expiry count %.0f\n", first);
  for (std::size_t i = 1; i < resends.size(); ++i) {
    const double k = first + static_cast<double>(i - 1);  // the expiry count when the gap began
    const double want_us = interval_us(k);
    const double got_us = gap_us(i);
    std::printf("[exp] gap %zu: %.0f us (want %.0f)\n", i, got_us, want_us);
    EXPECT_NEAR(got_us, want_us, 100) << "gap " << i << " (rtt " << rtt << " us, var " << var << " us)";
  }
  EXPECT_EQ(c->state(), ConnState::connected);
}

TEST(UdtControl, ExpBackoffAtTheFloorOfNTimes300ms) { expect_exp_backoff(5ms); }
TEST(UdtControl, ExpBackoffFollowsRttWhenItIsLong) { expect_exp_backoff(200ms); }

// A receiver whose application stops reading fills its buffer; the sender keeps at most the
// advertised window in flight and resumes when the application reads again.
TEST(UdtControl, FlowWindowOfAFullReceiverIsHonoured) {
  Pair p;
  ConnectionSettings s, ls;
  ls.recv_buffer_packets = 64;
  ls.flight_flag_size = 64;
  auto [c, l] = p.connect(s, ls);
  ASSERT_TRUE(c && l);
  EXPECT_EQ(c->stats().flow_window, 64);
  const auto data = pattern(1'000'000, 7);
  std::size_t sent = 0;
  std::uint32_t max_in_flight = 0;
  p.net.run_until([&] {
    sent += c->send_stream(std::span(data).subspan(sent), p.net.now());
    max_in_flight = std::max(max_in_flight, c->stats().in_flight);
    return false;
  }, p.net.now() + 5s);  // nobody reads at l
  const ConnStats st = c->stats();
  EXPECT_LE(max_in_flight, 64u);
  EXPECT_LE(st.sent - st.retransmitted, 64u + 2u);  // the buffer, plus the library's minimum window of 2
  EXPECT_GE(st.sent - st.retransmitted, 64u);       // and it did fill the buffer
  EXPECT_LE(st.flow_window, 2);
  std::vector<std::uint8_t> got, buf(65536);
  p.net.run_until([&] {
    sent += c->send_stream(std::span(data).subspan(sent), p.net.now());
    const std::size_t n = l->recv_stream(buf);
    got.insert(got.end(), buf.begin(), buf.begin() + static_cast<long>(n));
    return got.size() >= data.size();
  }, p.net.now() + 60s);
  EXPECT_TRUE(got == data);
}

}  // namespace
}  // namespace ncgw::udt
