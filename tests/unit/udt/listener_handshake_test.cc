// The listener's side of a caller's handshake when its response is lost: until the caller's first
// packet reaches the new connection, EXP repeats the handshake response, never a keep-alive (the
// library's blocking connect takes any non-handshake packet as the end of its handshake and then
// reports "Connection does not exist" on its first send).
#include <gtest/gtest.h>

#include <array>

#include "transports/udt/endpoint.h"
#include "transports/udt/packet.h"

namespace ncgw::udt {
namespace {

using namespace std::chrono_literals;

const PeerAddress kCaller = PeerAddress::v4(10, 0, 0, 1, 9000);
constexpr std::int32_t kCallerId = 77;

// A listening endpoint fed hand-written caller packets; what it sends is read back one by one.
struct Listener {
  Endpoint ep{5};
  transport::TimePoint now = transport::time_from_ns(1'000'000'000);
  std::array<std::uint8_t, 2048> buf{};
  decltype(Handshake::cookie) cookie{};   // the listener's cookie for kCaller

  explicit Listener(ConnectionSettings settings = {}) { ep.listen(settings); }
  void deliver(std::size_t len) { ep.on_datagram(std::span(buf).first(len), kCaller, now); }
  // The next packet the listener sends, if any.
  std::optional<Packet> next() {
    out_ = {};
    const auto t = ep.poll_transmit(out_, now);
    if (!t) return std::nullopt;
    return parse_packet(std::span<const std::uint8_t>(out_).first(t->size));
  }
  // Advances virtual time by `d`, firing due timers.
  void advance(std::chrono::nanoseconds d) {
    now += d;
    ep.on_timeout(now);
  }

 private:
  std::array<std::uint8_t, 2048> out_{};
};

// Runs the caller's two requests (cookie, then -1 with it) and drops the listener's response
// (kept in `response` if given); returns the listener-side connection's id.
std::int32_t accept_and_lose_response(Listener& l, Handshake* response = nullptr) {
  Handshake req;
  req.isn = 1234;
  req.socket_id = kCallerId;
  l.deliver(write_handshake(l.buf, 0, req));
  const auto cookie_reply = l.next();
  EXPECT_TRUE(cookie_reply && cookie_reply->control && cookie_reply->type == wire::ControlType::handshake);
  req.cookie = parse_handshake(cookie_reply->payload)->cookie;
  l.cookie = req.cookie;
  req.req_type = wire::kReqResponse;
  l.deliver(write_handshake(l.buf, 0, req));
  const auto accepted = l.ep.accept();
  EXPECT_TRUE(accepted.has_value());
  const auto sent = l.next();  // the response, lost on the way
  EXPECT_TRUE(sent.has_value());
  if (sent && response) *response = parse_handshake(sent->payload).value_or(Handshake{});
  EXPECT_FALSE(l.next().has_value());
  return accepted.value_or(0);
}

TEST(UdtListenerHandshake, ExpRepeatsTheResponseUntilTheCallerIsHeard) {
  Listener l;
  accept_and_lose_response(l);
  l.advance(400ms);  // past the first EXP (>= 300 ms)
  const auto p = l.next();
  ASSERT_TRUE(p.has_value());
  EXPECT_TRUE(p->control);
  EXPECT_EQ(p->type, wire::ControlType::handshake);
  EXPECT_EQ(p->dest_id, static_cast<std::uint32_t>(kCallerId));
  const auto hs = parse_handshake(p->payload);
  ASSERT_TRUE(hs.has_value());
  EXPECT_EQ(hs->req_type, wire::kReqResponse);
  EXPECT_EQ(hs->isn, 1234);
}

TEST(UdtListenerHandshake, KeepAliveOnceTheCallerHasBeenHeard) {
  Listener l;
  const std::int32_t id = accept_and_lose_response(l);
  l.deliver(write_control(l.buf, wire::ControlType::keepalive, 0, static_cast<std::uint32_t>(id), {}));
  l.advance(400ms);
  const auto p = l.next();
  ASSERT_TRUE(p.has_value());
  EXPECT_TRUE(p->control);
  EXPECT_EQ(p->type, wire::ControlType::keepalive);
}

// The fields of two handshakes that must agree when one repeats the other.
void expect_same_answer(const Handshake& a, const Handshake& b) {
  EXPECT_EQ(a.req_type, b.req_type);
  EXPECT_EQ(a.isn, b.isn);
  EXPECT_EQ(a.mss, b.mss);
  EXPECT_EQ(a.flight_flag_size, b.flight_flag_size);
  EXPECT_EQ(a.socket_id, b.socket_id);
  EXPECT_EQ(a.peer_ip, b.peer_ip);
}

// A caller that missed the response asks again, on the listener (its cookie request repeated) or
// on the connection (a new first request): it gets the first response again, field for field (a
// rebuilt one once advertised a larger flight flag than the listener's receive buffer).
TEST(UdtListenerHandshake, ARepeatedRequestGetsTheFirstResponseAgain) {
  ConnectionSettings small_buffer;
  small_buffer.recv_buffer_packets = 1000;
  Listener l(small_buffer);
  Handshake first;
  const std::int32_t id = accept_and_lose_response(l, &first);
  EXPECT_EQ(first.flight_flag_size, 1000);
  for (const std::uint32_t dest : {0u, static_cast<std::uint32_t>(id)}) {
    Handshake again;
    again.isn = 1234;
    again.socket_id = kCallerId;
    again.req_type = dest == 0 ? wire::kReqResponse : wire::kReqCaller;
    again.cookie = l.cookie;
    l.deliver(write_handshake(l.buf, dest, again));
    const auto p = l.next();
    ASSERT_TRUE(p && p->control && p->type == wire::ControlType::handshake) << "dest " << dest;
    const auto hs = parse_handshake(p->payload);
    ASSERT_TRUE(hs.has_value());
    expect_same_answer(*hs, first);
  }
}

}  // namespace
}  // namespace ncgw::udt
