// Connection management in the simulator: symmetric handshake, restart of either side without
// restarting the other, dead-peer detection and re-establishment, keep-alives when idle.
#include <gtest/gtest.h>

#include "tests/sim/tcpnc/harness.h"

namespace ncgw::tcpnc::simtest {
namespace {

TEST(TcpncSession, HandshakeEstablishesBothSidesWithinOneRtt) {
  Scenario sc;
  auto sim = build(sc, 5001);
  auto& a = sim->core_as<TcpncCore>(Side::a);
  auto& b = sim->core_as<TcpncCore>(Side::b);
  ASSERT_TRUE(sim->run_until([&] { return a.established() && b.established(); }, transport::time_from_ns(100'000'000)));
  EXPECT_EQ(a.peer_session_id(), b.session_id());
  EXPECT_EQ(b.peer_session_id(), a.session_id());
  EXPECT_LE(sim->now(), transport::time_from_ns(25'000'000));
}

TEST(TcpncSession, SenderRestartStartsAFreshStream) {
  Scenario sc;
  auto sim = build(sc, 5002);
  sim->run_for(2s);
  sim::Sink& sink = sim->ep(Side::b).sink;
  const auto before = sink.packets();
  ASSERT_GT(before, 1000u);
  auto& b = sim->core_as<TcpncCore>(Side::b);
  const auto old_peer = b.peer_session_id();
  // Side A's gateway restarts: new core, and its end hosts' stream starts over (stream 2).
  sim->set_core(Side::a, std::make_unique<TcpncCore>(sc.settings, sim->seed_for(99)));
  sim->set_source(Side::a, std::make_unique<sim::BulkSource>(sc.packet_bytes, 2, 0));
  ASSERT_TRUE(sim->run_until([&] { return sink.packets() > before + 2000; }, sim->now() + 5s));
  EXPECT_EQ(sink.errors(), 0u) << sink.first_error();
  EXPECT_NE(b.peer_session_id(), old_peer);
  EXPECT_EQ(stat(b, "peer_restarts"), 1.0);
  EXPECT_GT(sink.expected(), 1500u);  // the new stream, from seq 0, in order (old-stream tail first)
}

TEST(TcpncSession, ReceiverRestartResetsTheSenderAndDeliveryResumes) {
  Scenario sc;
  auto sim = build(sc, 5003);
  sim->run_for(2s);
  sim::Sink& sink = sim->ep(Side::b).sink;
  sink.set_allow_gaps(true);  // what the dead receiver held is lost; never duplicated or reordered
  const auto before = sink.packets();
  sim->set_core(Side::b, std::make_unique<TcpncCore>(sc.settings, sim->seed_for(98)));
  ASSERT_TRUE(sim->run_until([&] { return sink.packets() > before + 2000; }, sim->now() + 5s));
  auto& a = sim->core_as<TcpncCore>(Side::a);
  EXPECT_EQ(sink.errors(), 0u) << sink.first_error();
  EXPECT_LE(sink.gaps(), 1u);
  EXPECT_EQ(stat(a, "peer_restarts"), 1.0);
  EXPECT_GT(stat(a, "session_drops"), 0.0);
  // Everything A accepted is delivered, dropped at the reset, or still buffered.
  EXPECT_LE(sink.packets() + static_cast<std::uint64_t>(stat(a, "session_drops")) +
                static_cast<std::uint64_t>(stat(a, "sending_buffer_used")),
            static_cast<std::uint64_t>(stat(a, "accepted")) + 200);
}

TEST(TcpncSession, DeadPeerDetectedAndSessionReestablished) {
  Scenario sc;
  sc.settings.dead_peer_ms = 3000;
  auto sim = build(sc, 5004);
  sim->run_for(1s);
  sim::Sink& sink = sim->ep(Side::b).sink;
  sink.set_allow_gaps(true);
  auto& a = sim->core_as<TcpncCore>(Side::a);
  const auto old_session = a.session_id();
  sim->set_up(Side::b, false);  // B's machine hangs (no restart, state kept)
  sim->run_for(4s);
  EXPECT_FALSE(a.established());
  EXPECT_EQ(stat(a, "session_resets"), 1.0);
  EXPECT_NE(a.session_id(), old_session);
  sim->set_up(Side::b, true);
  const auto before = sink.packets();
  ASSERT_TRUE(sim->run_until([&] { return sink.packets() > before + 1000; }, sim->now() + 5s));
  EXPECT_TRUE(a.established());
  EXPECT_EQ(sink.errors(), 0u) << sink.first_error();
  EXPECT_EQ(sim->core_as<TcpncCore>(Side::b).peer_session_id(), a.session_id());
}

TEST(TcpncSession, IdleSessionSendsKeepalivesAndStaysUp) {
  Scenario sc;
  auto sim = build(sc, 5005, 100);  // 100 packets, then idle
  sim->run_for(30s);
  auto& a = sim->core_as<TcpncCore>(Side::a);
  auto& b = sim->core_as<TcpncCore>(Side::b);
  EXPECT_EQ(sim->ep(Side::b).sink.packets(), 100u);
  EXPECT_TRUE(a.established());
  EXPECT_TRUE(b.established());
  EXPECT_EQ(stat(a, "session_resets"), 0.0);
  EXPECT_GE(stat(a, "keepalives_sent"), 25.0);
  EXPECT_GE(stat(b, "keepalives_sent"), 25.0);
}

TEST(TcpncSession, HelloLimitsBoundThePeersCodingWindows) {
  Scenario sc;
  sc.data_loss = [](Simulation& sim, sim::Link& l) { l.add<sim::BernoulliLoss>(0.05, sim.seed_for(5)); };
  auto sim = build(sc, 5006, 5000);
  TcpncCoreSettings small = sc.settings;
  small.n_max = 12;   // B's decoder takes CWs of at most 12 sources
  small.cwnd_max_packets = 16;  // and holds fewer CW slots
  sim->set_core(Side::b, std::make_unique<TcpncCore>(small, sim->seed_for(12)));
  const sim::Sink& sink = sim->ep(Side::b).sink;
  ASSERT_TRUE(sim->run_until([&] { return sink.packets() >= 5000; }, sim->now() + 30s));
  EXPECT_EQ(sink.errors(), 0u) << sink.first_error();
  const auto& a = *sim->ep(Side::a).core;
  EXPECT_LE(stat(a, "n"), 12.0);
  EXPECT_GE(stat(a, "n"), 4.0);
  EXPECT_EQ(stat(*sim->ep(Side::b).core, "out_of_window_received"), 0.0);
  EXPECT_EQ(stat(*sim->ep(Side::b).core, "malformed_received"), 0.0);
}

TEST(TcpncSession, SendBeforeHandshakeIsRefusedNotQueued) {
  TcpncCoreSettings s;
  TcpncCore core(s, 7);
  std::vector<std::uint8_t> pkt(100, 1);
  EXPECT_EQ(core.send(pkt, {}), transport::SendResult::not_connected);
  std::vector<std::uint8_t> big(core.max_payload() + 1, 1);
  EXPECT_EQ(core.send(big, {}), transport::SendResult::too_big);
}

}  // namespace
}  // namespace ncgw::tcpnc::simtest
