// ACKs ride on reverse-direction data (DATA_ACK): with traffic both ways over lossy links, every
// packet still arrives exactly once and in order on both sides, the side whose data leave room
// carries most of its ACKs as trailers, and the path carries fewer datagrams for the same data
// than with ACKs sent alone. Full-size data leave no room: then ACKs go out alone and nothing stalls.
#include <gtest/gtest.h>

#include "tests/sim/tcpnc/harness.h"

namespace ncgw::tcpnc::simtest {
namespace {

// Bulk both ways: A sends `a_bytes` packets, B sends `b_bytes` packets (small ones look like the
// TCP ACKs of the hosts behind B). 2% random loss each way; default controller.
std::unique_ptr<Simulation> two_way(std::size_t a_bytes, std::size_t b_bytes, std::uint64_t seed) {
  Scenario sc;
  sc.settings = TcpncCoreSettings{};
  sc.packet_bytes = a_bytes;
  auto sim = build(sc, seed);
  for (Side s : {Side::a, Side::b}) sim->ep(s).sink.set_allow_gaps(true);  // entrance drops: counted
  for (Side s : {Side::a, Side::b})
    sim->link_from(s).add<sim::BernoulliLoss>(0.02, sim->seed_for(s == Side::a ? 21 : 22));
  sim->set_source(Side::b, std::make_unique<sim::BulkSource>(b_bytes, 2));
  return sim;
}

// Both sinks got more than `min_packets`, never a duplicate or a reordering; every gap is a packet
// the sending side dropped at its entrance (a full waiting queue or CoDel) and counted.
void expect_exactly_once_in_order(Simulation& sim, std::uint64_t min_packets) {
  for (Side s : {Side::a, Side::b}) {
    const auto& sink = sim.ep(s).sink;
    const auto& sender = sim.core_as<TcpncCore>(s == Side::a ? Side::b : Side::a);
    EXPECT_EQ(sink.errors(), 0u) << sink.first_error();
    EXPECT_GT(sink.packets(), min_packets);
    EXPECT_LE(static_cast<double>(sink.gaps()), stat(sender, "entrance_drops") + stat(sender, "aqm_drops"));
  }
}

TEST(TcpncPiggyback, AcksRideOnReverseDataAndNothingIsLostOrRepeated) {
  auto sim = two_way(1200, 80, 6101);
  sim->run_for(10s);
  auto& a = sim->core_as<TcpncCore>(Side::a);
  auto& b = sim->core_as<TcpncCore>(Side::b);
  expect_exactly_once_in_order(*sim, 2000);
  const double b_acks = stat(b, "acks_sent"), b_pig = stat(b, "acks_piggybacked");
  const double a_acks = stat(a, "acks_sent"), a_pig = stat(a, "acks_piggybacked");
  std::printf("A: %.0f acks, %.0f piggybacked; B: %.0f acks, %.0f piggybacked\n", a_acks, a_pig, b_acks, b_pig);
  // B's data are small: nearly every ACK of A's data rides on one.
  EXPECT_GT(b_pig, 0.9 * b_acks);
  // A's 1200-byte packets leave ~200 bytes: room for an ACK trailer.
  EXPECT_GT(a_pig, 0.5 * a_acks);
}

TEST(TcpncPiggyback, FullSizeDataLeaveNoRoomAndAcksGoAlone) {
  // The largest packets that fill one source (the opaque form adds a byte; larger ones go in pieces).
  const std::size_t full = max_symbol_for(TcpncCoreSettings{}) - 1;
  auto sim = two_way(full, full, 6102);
  sim->run_for(10s);
  expect_exactly_once_in_order(*sim, 1000);
  for (Side s : {Side::a, Side::b}) EXPECT_GT(stat(sim->core_as<TcpncCore>(s), "acks_sent"), 500.0);
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
