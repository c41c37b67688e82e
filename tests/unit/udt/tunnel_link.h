// Two UdtTunnelCores joined by an in-memory link in virtual time (unit and sim tests of the tunnel).
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <iterator>
#include <limits>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "transports/udt/udt_tunnel_core.h"

namespace ncgw::udt::test {

using namespace std::chrono_literals;
using transport::TimePoint;

inline const PeerAddress kA = PeerAddress::v4(10, 0, 0, 1, 5502);
inline const PeerAddress kB = PeerAddress::v4(10, 0, 0, 2, 5502);

// Two cores joined by a link of `delay` each way (5 ms unless set), stepped in virtual time by 100 us.
struct Link {
  std::unique_ptr<UdtTunnelCore> a, b;
  std::deque<std::pair<TimePoint, std::vector<std::uint8_t>>> ab, ba;
  TimePoint now = transport::time_from_ns(5'000'000'000);
  bool cut = false;
  transport::Duration delay = std::chrono::milliseconds(5);  // one way
  std::function<bool(const std::vector<std::uint8_t>&)> drop_ab;  // drops a -> b datagrams it selects
  std::function<bool(const std::vector<std::uint8_t>&)> drop_ba;  // drops b -> a datagrams it selects

  void drain(transport::Core& c, std::deque<std::pair<TimePoint, std::vector<std::uint8_t>>>& q) {
    std::vector<std::uint8_t> buf(2048);
    while (auto n = c.poll_transmit(buf, now)) {
      std::vector<std::uint8_t> d(buf.begin(), buf.begin() + static_cast<long>(*n));
      if (cut || (&q == &ab && drop_ab && drop_ab(d)) || (&q == &ba && drop_ba && drop_ba(d))) continue;
      q.emplace_back(now + delay, std::move(d));
    }
  }
  void step() {
    for (auto* c : {a.get(), b.get()}) {
      const auto d = c->next_deadline();
      if (d && *d <= now) c->on_timeout(now);
    }
    drain(*a, ab);
    drain(*b, ba);
    while (!ab.empty() && ab.front().first <= now) { b->on_datagram(ab.front().second, now); ab.pop_front(); }
    while (!ba.empty() && ba.front().first <= now) { a->on_datagram(ba.front().second, now); ba.pop_front(); }
    now += 100us;
  }
  bool run_until(const std::function<bool()>& p, transport::Duration limit) {
    const TimePoint end = now + limit;
    while (now < end) {
      if (p()) return true;
      step();
    }
    return p();
  }
};

inline UdtTunnelSettings settings(TunnelRole r, const PeerAddress& peer, std::uint64_t seed) {
  UdtTunnelSettings s = default_tunnel_settings();
  s.role = r;
  s.peer = peer;
  s.seed = seed;
  s.conn.send_buffer_packets = s.conn.recv_buffer_packets = 1024;
  return s;
}

// An IPv4/UDP packet of `len` bytes (at least 32) of inner flow `flow` (its source port is
// 1000 + flow) carrying `seq` in its first payload word.
inline std::vector<std::uint8_t> flow_packet(std::uint16_t flow, std::uint32_t seq, std::size_t len) {
  std::vector<std::uint8_t> p(len, 0xA5);
  const std::uint8_t header[20] = {0x45, 0, static_cast<std::uint8_t>(len >> 8), static_cast<std::uint8_t>(len),
                                   0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 1, 1};
  std::copy(std::begin(header), std::end(header), p.begin());
  const std::uint16_t sport = static_cast<std::uint16_t>(1000 + flow);
  const std::uint8_t udp[8] = {static_cast<std::uint8_t>(sport >> 8), static_cast<std::uint8_t>(sport), 0x14, 0x51,
                               static_cast<std::uint8_t>((len - 20) >> 8), static_cast<std::uint8_t>(len - 20), 0, 0};
  std::copy(std::begin(udp), std::end(udp), p.begin() + 20);
  for (int i = 0; i < 4; ++i) p[28 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(seq >> (24 - 8 * i));
  return p;
}

// The value of the stat `name` of core `c` (NaN if it has none).
inline double stat(const UdtTunnelCore& c, std::string_view name) {
  for (const auto& e : c.stats()) {
    if (e.name == name) return e.value;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

// The flow and sequence number of a packet made by flow_packet.
inline std::pair<std::uint16_t, std::uint32_t> flow_and_seq(std::span<const std::uint8_t> p) {
  const std::uint16_t flow = static_cast<std::uint16_t>((p[20] << 8 | p[21]) - 1000);
  const std::uint32_t seq = std::uint32_t{p[28]} << 24 | std::uint32_t{p[29]} << 16 | std::uint32_t{p[30]} << 8 | p[31];
  return {flow, seq};
}

}  // namespace ncgw::udt::test
