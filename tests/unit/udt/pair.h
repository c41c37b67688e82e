// Shared helpers of the UDT connection unit tests: two endpoints on the in-memory network, a
// byte pattern and a stream pump, all in virtual time.
#pragma once
#include <utility>
#include <vector>

#include "mem_net.h"

namespace ncgw::udt::test {

using namespace std::chrono_literals;

// Addresses of the caller (a) and the listener (b).
inline const PeerAddress kA = PeerAddress::v4(10, 0, 0, 1, 9000);
inline const PeerAddress kB = PeerAddress::v4(10, 0, 0, 2, 9000);

// n pseudo-random bytes from `seed`.
inline std::vector<std::uint8_t> pattern(std::size_t n, std::uint64_t seed) {
  transport::Rng r(seed);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(r.next());
  return v;
}

// Endpoints a and b on one in-memory network.
struct Pair {
  Endpoint a{11}, b{22};
  MemNet net;
  Pair() {
    net.attach(&a, kA);
    net.attach(&b, kB);
  }
  // b listens, a calls; runs until both ends are connected (2 s of virtual time at most).
  // Returns {caller, listener}, or nulls if the handshake did not complete.
  std::pair<Connection*, Connection*> connect(const ConnectionSettings& s) { return connect(s, s); }
  // As connect(s), with the listener's own settings `ls`.
  std::pair<Connection*, Connection*> connect(const ConnectionSettings& s, const ConnectionSettings& ls) {
    b.listen(ls);
    const auto id = a.connect(kB, s, net.now());
    std::optional<std::int32_t> acc;
    const bool up = net.run_until([&] {
      if (!acc) acc = b.accept();
      return acc && a.find(id)->connected();
    }, net.now() + 2s);
    if (!up) return {nullptr, nullptr};
    return {a.find(id), b.find(*acc)};
  }
};

// Pumps a stream from `src` to `dst`; returns the bytes received.
inline std::vector<std::uint8_t> pump_stream(MemNet& net, Connection* src, Connection* dst,
                                             const std::vector<std::uint8_t>& data, transport::TimePoint limit) {
  std::size_t sent = 0;
  std::vector<std::uint8_t> got;
  std::vector<std::uint8_t> buf(65536);
  net.run_until([&] {
    sent += src->send_stream(std::span(data).subspan(sent), net.now());
    const std::size_t n = dst->recv_stream(buf);
    got.insert(got.end(), buf.begin(), buf.begin() + static_cast<long>(n));
    return got.size() >= data.size();
  }, limit);
  return got;
}

}  // namespace ncgw::udt::test
