// Two transport cores joined back to back in memory (no loss, no delay), for fuzz targets that
// first bring a tunnel up, then feed one side hostile datagrams, then check liveness: whatever
// the input did, a fresh exchange between the two still delivers within a bounded virtual time
// (a core may drop a session a hostile datagram broke, but must come back).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "transports/common/byte_order.h"
#include "transports/common/core.h"
#include "transports/common/time.h"

namespace ncgw::fuzz {

// Calls `f(datagram)` for each datagram of a fuzz input laid out as [u16 big-endian length][bytes]
// (a length past the end takes what is left); `f` may modify its copy.
template <class F>
void for_each_datagram(const std::uint8_t* data, std::size_t size, std::vector<std::uint8_t>& scratch, F f) {
  while (size >= 2) {
    const std::size_t len = std::min<std::size_t>(std::size_t{transport::get_be16(data)}, size - 2);
    scratch.assign(data + 2, data + 2 + len);
    data += 2 + len;
    size -= 2 + len;
    f(scratch);
  }
}

// A and B, a virtual clock, and one datagram buffer.
class CorePair {
 public:
  CorePair(transport::Core& a, transport::Core& b) : a_(a), b_(b) {}

  transport::TimePoint now() const { return now_; }
  // Moves the clock on by `step` and runs both cores' due timeouts.
  void advance(transport::Duration step) {
    now_ += step;
    for (transport::Core* c : {&a_, &b_}) {
      if (const auto d = c->next_deadline(); d && *d <= now_) c->on_timeout(now_);
    }
  }
  // Hands every datagram either side has to send to the other until both are quiet (bounded).
  void exchange() {
    for (int round = 0; round < 64; ++round) {
      const bool a_sent = move(a_, b_);
      const bool b_sent = move(b_, a_);
      if (!a_sent && !b_sent) return;
    }
  }
  // Discards what B has delivered so far.
  void drain_b() {
    while (b_.poll_deliver(buf_)) {
    }
  }
  // Liveness: A offers a marked packet every 10 ms for up to `limit`; true once B delivers one.
  bool fresh_exchange_delivers(transport::Duration limit) {
    drain_b();
    const transport::TimePoint end = now_ + limit;
    while (now_ < end) {
      (void)a_.send(kMarked, now_);
      exchange();
      while (const auto n = b_.poll_deliver(buf_)) {
        if (*n == kMarked.size() && std::memcmp(buf_.data(), kMarked.data(), *n) == 0) return true;
      }
      advance(std::chrono::milliseconds(10));
    }
    return false;
  }

 private:
  // Moves `from`'s pending datagrams into `to`; whether there were any.
  bool move(transport::Core& from, transport::Core& to) {
    bool any = false;
    for (int i = 0; i < 4096; ++i) {
      const auto n = from.poll_transmit(buf_, now_);
      if (!n) break;
      to.on_datagram(std::span<const std::uint8_t>(buf_.data(), *n), now_);
      any = true;
    }
    return any;
  }

  // A 28-byte IPv4/UDP-looking packet with a recognisable payload.
  static constexpr std::array<std::uint8_t, 28> kMarked{0x45, 0, 0, 28, 0, 0, 0x40, 0, 64, 17, 0, 0, 10, 1, 0, 2,
                                                        10, 2, 0, 2, 0x4e, 0x43, 0x47, 0x57, 0, 8, 0, 0};
  transport::Core& a_;
  transport::Core& b_;
  transport::TimePoint now_ = transport::time_from_ns(1'000'000'000);
  std::array<std::uint8_t, 65536> buf_{};
};

}  // namespace ncgw::fuzz
