// Loss list, receiver buffer, send buffer, arrival window and CUDTCC in isolation.
#include <gtest/gtest.h>

#include "transports/udt/arrival_window.h"
#include "transports/udt/cudtcc.h"
#include "transports/udt/loss_list.h"
#include "transports/udt/receiver.h"
#include "transports/udt/send_buffer.h"
#include "transports/udt/seq.h"

namespace ncgw::udt {
namespace {

TEST(UdtLossList, InsertPopAcrossWrap) {
  SendLossList l(1024);
  EXPECT_EQ(l.insert(0x7FFFFFFE, 2), 5u);
  EXPECT_EQ(l.insert(0, 3), 1u);  // only 3 is new
  EXPECT_EQ(l.size(), 6u);
  l.remove_upto(0x7FFFFFFF);
  EXPECT_EQ(l.size(), 4u);
  EXPECT_EQ(l.pop_first(), 0);
  l.remove(2, 2);
  EXPECT_EQ(l.pop_first(), 1);
  EXPECT_EQ(l.pop_first(), 3);
  EXPECT_FALSE(l.pop_first());
  EXPECT_EQ(l.insert(500, 400), 0u);  // reversed range
}

TEST(UdtReceiver, GapsAckAndMessages) {
  Receiver r(64, 100);
  r.start(0x7FFFFFFE);
  std::optional<Receiver::Range> gap;
  const std::uint8_t a[3] = {1, 2, 3};
  EXPECT_EQ(r.on_data(0x7FFFFFFE, make_msg_word(1, true, true, true), a, gap), Receiver::Arrival::stored);
  EXPECT_FALSE(gap);
  EXPECT_EQ(r.on_data(1, make_msg_word(3, true, true, true), a, gap), Receiver::Arrival::stored);
  ASSERT_TRUE(gap);
  EXPECT_EQ((*gap)[0], 0x7FFFFFFF);
  EXPECT_EQ((*gap)[1], 0);
  EXPECT_EQ(r.holes(), 2u);
  EXPECT_EQ(r.ack_point(), 0x7FFFFFFF);
  std::array<Receiver::Range, 4> ranges;
  ASSERT_EQ(r.loss_ranges(ranges), 1u);
  std::uint8_t out[16];
  EXPECT_EQ(r.read_message(out), 3u);
  EXPECT_FALSE(r.read_message(out));
  EXPECT_EQ(r.on_data(1, make_msg_word(3, true, true, true), a, gap), Receiver::Arrival::duplicate);
  // a two-packet message 2 in [0x7FFFFFFF, 0]: first part arrives, second is dropped by request
  EXPECT_EQ(r.on_data(0x7FFFFFFF, make_msg_word(2, true, false, true), a, gap), Receiver::Arrival::stored);
  r.drop(DropRequest{2, 0, 0});
  EXPECT_EQ(r.holes(), 0u);
  EXPECT_EQ(r.ack_point(), 2);
  EXPECT_EQ(r.read_message(out), 3u);  // message 3; message 2 was skipped
  EXPECT_FALSE(r.readable());
  // out of window
  EXPECT_EQ(r.on_data(2 + 63, make_msg_word(9, true, true, true), a, gap), Receiver::Arrival::out_of_window);
}

TEST(UdtReceiver, StreamReadsAcrossPackets) {
  Receiver r(64, 4);
  r.start(10);
  std::optional<Receiver::Range> gap;
  const std::uint8_t a[4] = {1, 2, 3, 4}, b[2] = {5, 6};
  r.on_data(11, 0, b, gap);
  std::uint8_t out[8];
  EXPECT_EQ(r.read_stream(out), 0u);  // 10 missing
  r.on_data(10, 0, a, gap);
  EXPECT_EQ(r.read_stream(std::span(out, 3)), 3u);
  EXPECT_EQ(r.read_stream(out), 3u);
  EXPECT_EQ(out[0], 4);
  EXPECT_EQ(out[2], 6);
}

TEST(UdtSendBuffer, StreamSplitsAndAcks) {
  SendBuffer b(8, 10);
  std::vector<std::uint8_t> d(35, 7);
  EXPECT_EQ(b.add_stream(d, 0), 35u);
  EXPECT_EQ(b.size(), 4u);
  EXPECT_TRUE(msg_first(b.block(0).msg_word));
  EXPECT_TRUE(msg_last(b.block(3).msg_word));
  EXPECT_EQ(b.data(3).size(), 5u);
  EXPECT_EQ(b.add_stream(std::vector<std::uint8_t>(100, 1), 0), 40u);  // only 4 blocks left
  EXPECT_FALSE(b.add_message(std::vector<std::uint8_t>(1, 1), -1, true, 0));
  b.mark_sent();
  b.mark_sent();
  b.ack(1);
  EXPECT_EQ(b.unsent_offset(), 1u);
  EXPECT_EQ(b.message_extent(1), (std::pair<std::uint32_t, std::uint32_t>{0, 2}));
}

TEST(UdtArrivalWindow, RateAndCapacity) {
  ArrivalWindow w;
  w.reset(0);
  EXPECT_EQ(w.arrival_rate(), 1);  // initial 1 s gaps pass the median filter
  std::int64_t t = 0;
  for (int s = 0; s < 16 * 40; ++s) {
    t += (s % 16 == 1) ? 10 : 100;  // pairs 10 us apart, 100 us otherwise
    w.on_arrival(s, t);
  }
  EXPECT_NEAR(w.arrival_rate(), 10000, 200);
  EXPECT_NEAR(w.capacity(), 100000, 1000);  // 40 pairs 10 us apart outvote the 1 ms initial samples
}

TEST(UdtArrivalWindow, PairsWithOneTimeStampCountAsOneMicrosecondApart) {
  ArrivalWindow w;
  w.reset(0);
  std::int64_t t = 0;
  for (int s = 0; s < 16 * 40; ++s) {
    if (s % 16 != 1) t += 100;  // each pair's halves share a time stamp (one GSO send, delivered locally)
    w.on_arrival(s, t);
  }
  EXPECT_EQ(w.capacity(), 1'000'000);
}

// Bursts of one GSO send each (every datagram of a burst has the burst's time stamp) and 10 ms
// between bursts: 1 us per gap within a burst, a rate of 1e6 packets/s. With 0 us gaps the median
// was 0, arrival_rate() 0 and the sender's window stayed where it was: at 62 packets it never
// drew a light ACK (one per 64 packets), so one ACK per 10 ms clocked the flow at 0.07 Gbit/s.
TEST(UdtArrivalWindow, ArrivalsWithOneTimeStampCountAsOneMicrosecondApart) {
  ArrivalWindow w;
  w.reset(0);
  std::int64_t t = 0;
  for (int s = 0; s < 62 * 4; ++s) {
    if (s % 62 == 0) t += 10'000;
    w.on_arrival(s, t);
  }
  EXPECT_EQ(w.arrival_rate(), 1'000'000);
}

TEST(UdtCudtcc, SlowStartThenDecrease) {
  Cudtcc cc;
  cc.init(99, 1000, 1500, 0, 7);
  EXPECT_TRUE(cc.slow_start());
  cc.on_ack(200, 20000);
  EXPECT_DOUBLE_EQ(cc.cwnd(), 16 + 102);
  cc.set_rcv_rate(10000);
  cc.set_snd_curr_seq(300);
  cc.on_loss(250);  // leaves slow start at the receive rate
  EXPECT_FALSE(cc.slow_start());
  EXPECT_DOUBLE_EQ(cc.period_us(), 100.0);
  cc.on_loss(310);  // beyond the last decrease point: x1.125, rounded up
  EXPECT_DOUBLE_EQ(cc.period_us(), 113.0);
  cc.set_bandwidth(100000);
  cc.on_ack(320, 40000);  // first ACK after a loss only clears the loss flag
  EXPECT_DOUBLE_EQ(cc.period_us(), 113.0);
  cc.on_ack(330, 60000);
  EXPECT_LT(cc.period_us(), 113.0);
}

}  // namespace
}  // namespace ncgw::udt
