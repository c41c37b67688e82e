// Our UDT core against Debian's libudt (UDT 4.11) over loopback: both directions, every role
// pairing, stream and message mode, sequence wrap; checksums must be equal on both sides.
// Sizes: 100 MB streams and 100k messages of 1..1400 bytes per direction by default
// (the ten cases take ~10 s on the 2-core VM); NCGW_UDT_INTEROP_SMALL=1 shrinks them to 16 MB / 15k.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>

#include "gateway/udt/udp_driver.h"
#include "payload.h"
#include "peer_process.h"

namespace ncgw::udt::interop {
namespace {

using namespace std::chrono_literals;

enum class Role { caller, listener, rendezvous };

struct Case {
  Role ours = Role::caller;
  bool we_send = true;
  SocketType type = SocketType::stream;
  std::uint64_t bytes = 0;      // stream
  std::uint64_t messages = 0;   // dgram
  std::optional<std::int32_t> isn;
};

bool full() { return std::getenv("NCGW_UDT_INTEROP_SMALL") == nullptr; }
std::uint64_t stream_bytes() { return full() ? 100ull << 20 : 16ull << 20; }
std::uint64_t message_count() { return full() ? 100000 : 15000; }

const char* peer_role(Role r) {
  return r == Role::caller ? "listener" : r == Role::listener ? "caller" : "rendezvous";
}

struct Result {
  std::string ours;    // "bytes=N messages=M checksum=HEX"
  std::string theirs;
  double seconds = 0;
  ConnStats stats;
};

// Feeds or drains one connection; returns true when our part is finished.
class App {
 public:
  App(const Case& c, std::uint64_t seed) : c_(c), gen_(seed), buf_(1 << 20) {}

  bool step(Connection* conn, TimePoint now) {
    if (c_.we_send) return send_step(conn, now);
    return recv_step(conn);
  }
  std::string summary() const {
    return "bytes=" + std::to_string(sum_.bytes()) + " messages=" + std::to_string(sum_.messages()) +
           " checksum=" + sum_.hex();
  }

 private:
  bool send_step(Connection* conn, TimePoint now) {
    if (c_.type == SocketType::stream) {
      while (sent_ < c_.bytes) {
        if (pending_ == 0) {
          pending_ = static_cast<std::size_t>(std::min<std::uint64_t>(65536, c_.bytes - sent_));
          gen_.fill(buf_.data(), pending_);
          sum_.add(buf_.data(), pending_);
          off_ = 0;
        }
        const std::size_t n = conn->send_stream(std::span(buf_.data() + off_, pending_ - off_), now);
        if (n == 0) break;
        off_ += n;
        sent_ += n;
        if (off_ == pending_) pending_ = 0;
      }
      return sent_ >= c_.bytes && conn->send_idle();
    }
    while (sent_ < c_.messages) {
      if (pending_ == 0) pending_ = gen_.message(buf_.data(), 1400);
      if (!conn->send_message(std::span(buf_.data(), pending_), now)) break;
      sum_.add_message(buf_.data(), pending_);
      pending_ = 0;
      ++sent_;
    }
    return sent_ >= c_.messages && conn->send_idle();
  }

  bool recv_step(Connection* conn) {
    if (c_.type == SocketType::stream) {
      while (const std::size_t n = conn->recv_stream(buf_)) sum_.add(buf_.data(), n);
      return sum_.bytes() >= c_.bytes;
    }
    while (const auto n = conn->recv_message(buf_)) sum_.add_message(buf_.data(), *n);
    return sum_.messages() >= c_.messages;
  }

  Case c_;
  Gen gen_;
  Checksum sum_;
  std::vector<std::uint8_t> buf_;
  std::uint64_t sent_ = 0;
  std::size_t pending_ = 0, off_ = 0;
};

// Keeps our side serviced (final ACKs, ACK2, keep-alive, their shutdown) until the peer program
// prints its result line; nothing if it does not within `t`. We close only after this: a SHUTDOWN
// is no graceful end for libudt 4.11's blocking recvmsg (CUDT::recvmsg throws "Connection was
// broken" when m_bBroken is set during the call, while acknowledged messages are still buffered),
// so the end of the transfer is the receiving application's word, not our send buffer draining.
std::optional<std::string> await_peer_result(UdpDriver& drv, PeerProcess& peer, std::chrono::seconds t) {
  std::optional<std::string> line;
  drv.run([&](TimePoint) { return (line = peer.line()).has_value(); }, t);
  return line;
}

Result run_case(const Case& c) {
  Result res;
  const std::uint64_t seed = 42;
  Endpoint ep(7);
  UdpDriver drv(ep, PeerAddress::v4(127, 0, 0, 1, 0));
  ConnectionSettings s;
  s.type = c.type;
  s.initial_seq = c.isn;
  if (c.ours == Role::listener) ep.listen(s);
  std::vector<std::string> args = {
      std::string("role=") + peer_role(c.ours), "peer=127.0.0.1:" + std::to_string(drv.local_port()),
      std::string("type=") + (c.type == SocketType::stream ? "stream" : "dgram"),
      std::string("dir=") + (c.we_send ? "recv" : "send"), "bytes=" + std::to_string(c.bytes),
      "messages=" + std::to_string(c.messages), "seed=" + std::to_string(seed)};
  PeerProcess peer(NCGW_UDT_PEER_PATH, args);
  EXPECT_TRUE(peer.started());
  const auto port_line = peer.wait_line(5s);
  if (!port_line || port_line->rfind("port=", 0) != 0) {
    ADD_FAILURE() << "peer did not report its port: " << port_line.value_or("(nothing)");
    return res;
  }
  const PeerAddress them = PeerAddress::v4(127, 0, 0, 1, static_cast<std::uint16_t>(std::stoi(port_line->substr(5))));
  std::int32_t id = 0;
  if (c.ours == Role::caller) id = ep.connect(them, s, UdpDriver::now());
  if (c.ours == Role::rendezvous) id = ep.rendezvous(them, s, UdpDriver::now());
  App app(c, seed);
  const auto t0 = std::chrono::steady_clock::now();
  const bool done = drv.run([&](TimePoint now) {
    if (id == 0) {
      if (auto a = ep.accept()) id = *a;
      return false;
    }
    Connection* conn = ep.find(id);
    if (!conn || conn->state() == ConnState::rejected || conn->state() == ConnState::timed_out ||
        conn->state() == ConnState::broken) {
      return true;
    }
    if (!conn->connected() && !conn->readable()) return conn->state() == ConnState::closed;
    return app.step(conn, now);
  }, full() ? 600s : 180s);
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(done) << "timed out";
  const auto done_line = await_peer_result(drv, peer, full() ? 120s : 60s);
  Connection* conn = ep.find(id);
  EXPECT_TRUE(conn && (conn->state() == ConnState::connected || conn->peer_closed()))
      << (conn ? to_string(conn->state()) : "no connection");
  if (conn) {
    res.stats = conn->stats();
    conn->close(UdpDriver::now());
    drv.run([](TimePoint) { return true; }, 1s);
  }
  res.ours = app.summary();
  res.theirs = done_line.value_or("(no result)");
  peer.wait_exit(5s);
  std::printf("[interop] %.2f s, ours: %s | theirs: %s | retrans=%llu rcv_loss=%llu rtt=%d us\n", res.seconds,
              res.ours.c_str(), res.theirs.c_str(), static_cast<unsigned long long>(res.stats.retransmitted),
              static_cast<unsigned long long>(res.stats.rcv_loss), res.stats.rtt_us);
  return res;
}

void expect_equal(const Result& r) {
  EXPECT_EQ("done " + r.ours, r.theirs);
}

TEST(UdtInterop, OurCallerSendsStreamToTheirListener) {
  expect_equal(run_case({Role::caller, true, SocketType::stream, stream_bytes(), 0, {}}));
}
TEST(UdtInterop, TheirCallerSendsStreamToOurListener) {
  expect_equal(run_case({Role::listener, false, SocketType::stream, stream_bytes(), 0, {}}));
}
TEST(UdtInterop, OurListenerSendsStreamToTheirCaller) {
  expect_equal(run_case({Role::listener, true, SocketType::stream, stream_bytes(), 0, {}}));
}
TEST(UdtInterop, TheirListenerSendsStreamToOurCaller) {
  expect_equal(run_case({Role::caller, false, SocketType::stream, stream_bytes(), 0, {}}));
}
TEST(UdtInterop, OurCallerSendsMessagesToTheirListener) {
  expect_equal(run_case({Role::caller, true, SocketType::dgram, 0, message_count(), {}}));
}
TEST(UdtInterop, TheirCallerSendsMessagesToOurListener) {
  expect_equal(run_case({Role::listener, false, SocketType::dgram, 0, message_count(), {}}));
}
TEST(UdtInterop, RendezvousWeSendStream) {
  expect_equal(run_case({Role::rendezvous, true, SocketType::stream, stream_bytes() / 4, 0, {}}));
}
TEST(UdtInterop, RendezvousTheySendMessages) {
  expect_equal(run_case({Role::rendezvous, false, SocketType::dgram, 0, message_count() / 4, {}}));
}
TEST(UdtInterop, SequenceWrapWeSend) {
  expect_equal(run_case({Role::caller, true, SocketType::stream, 8ull << 20, 0, 0x7FFFFFFF - 1000}));
}
TEST(UdtInterop, SequenceWrapTheySend) {  // their listener adopts our ISN for its own sending
  expect_equal(run_case({Role::caller, false, SocketType::dgram, 0, 5000, 0x7FFFFFFF - 1000}));
}

}  // namespace
}  // namespace ncgw::udt::interop
