// A HELLO from a session the receiving side has never seen (an old or buggy peer, or anyone when
// the secure layer is off) arrives mid-stream: the reset is agreed by both sides, the tunnel
// recovers within 1 s, nothing is delivered twice or out of order, and the HELLO's limits
// (max_packet 1, n 1) die with that session instead of staying the minimum ever seen.
#include <gtest/gtest.h>

#include "tests/sim/tcpnc/harness.h"
#include "transports/tcpnc/packet.h"

namespace ncgw::tcpnc::simtest {
namespace {

// Feeds side `to` a HELLO from session 0x5eed (addressed to its current session) with `limits`.
void inject_hello(Simulation& sim, Side to, const Hello& limits) {
  auto& core = sim.core_as<TcpncCore>(to);
  std::vector<std::uint8_t> buf(256);
  buf.resize(write_hello(buf, CommonHeader{PacketType::kHello, 0x5eed, core.session_id()}, limits));
  core.on_datagram(buf, sim.now());
}

// Runs a bulk flow A -> B, injects the HELLO into `victim` at 2 s; checks recovery.
void foreign_hello_mid_stream(Side victim, std::uint64_t seed) {
  Scenario sc;
  sc.settings.fixed_n = 16;
  sc.settings.fixed_k = 4;
  auto sim = build(sc, seed);
  sim->run_for(2s);
  sim::Sink& sink = sim->ep(Side::b).sink;
  sink.set_allow_gaps(true);   // a reset drops what was in flight; never a duplicate
  ASSERT_GT(sink.packets(), 1000u);
  Hello tiny;
  tiny.max_packet = 1;
  tiny.max_n = 1;
  tiny.max_open = 1;
  inject_hello(*sim, victim, tiny);
  const auto at = sim->now();
  const auto before = sink.packets();
  ASSERT_TRUE(sim->run_until([&] { return sink.packets() > before + 200; }, at + 1s))
      << "no recovery within 1 s";
  std::printf("recovered %.0f ms after the foreign HELLO\n",
              std::chrono::duration<double, std::milli>(sim->now() - at).count());
  sim->run_for(2s);
  auto& a = sim->core_as<TcpncCore>(Side::a);
  auto& b = sim->core_as<TcpncCore>(Side::b);
  EXPECT_EQ(sink.errors(), 0u) << sink.first_error();
  EXPECT_EQ(a.peer_session_id(), b.session_id());
  EXPECT_EQ(b.peer_session_id(), a.session_id());
  EXPECT_EQ(stat(a, "n"), 16.0);        // the fixed n again, not the foreign HELLO's 1
  EXPECT_GT(sink.packets(), before + 1000);   // full-size packets flow again (max_packet 1 is gone)
}

TEST(TcpncForeignHello, AtTheReceiverRecoversWithin1s) { foreign_hello_mid_stream(Side::b, 5101); }
TEST(TcpncForeignHello, AtTheSenderRecoversWithin1s) { foreign_hello_mid_stream(Side::a, 5102); }

TEST(TcpncForeignHello, AFloodOfHellosRebuildsAtMostTenTimesASecond) {
  Scenario sc;
  auto sim = build(sc, 5103);
  sim->run_for(1s);
  auto& b = sim->core_as<TcpncCore>(Side::b);
  const double restarts_before = stat(b, "peer_restarts");
  std::vector<std::uint8_t> buf(256);
  Hello h;
  h.max_packet = 1400;
  h.max_n = 64;
  h.max_open = 32;
  for (std::uint32_t i = 0; i < 1000; ++i) {   // 1000 HELLOs of new sessions within one instant
    buf.resize(256);
    buf.resize(write_hello(buf, CommonHeader{PacketType::kHello, 0x10000 + i, b.session_id()}, h));
    b.on_datagram(buf, sim->now());
  }
  EXPECT_LE(stat(b, "peer_restarts") - restarts_before, 1.0);
  EXPECT_GE(stat(b, "hellos_ignored"), 999.0);
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
