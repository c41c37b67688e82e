// A tiny in-memory network for unit tests: endpoints exchange datagrams with a fixed one-way delay
// and an optional drop rule, in virtual time. (The shared simulator lives in tests/sim/common.)
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "transports/common/rng.h"
#include "transports/udt/endpoint.h"

namespace ncgw::udt::test {

class MemNet {
 public:
  // Registers an endpoint reachable at `addr`.
  void attach(Endpoint* ep, const PeerAddress& addr) { nodes_.push_back({ep, addr}); }
  // One-way delay of every datagram.
  void set_delay(transport::Duration d) { delay_ = d; }
  // Drops a datagram when drop(from, bytes) returns true.
  std::function<bool(const PeerAddress&, const std::vector<std::uint8_t>&)> drop;
  // Datagrams delivered so far.
  std::uint64_t delivered = 0;

  // Runs until pred() or `limit` virtual time; returns pred().
  bool run_until(const std::function<bool()>& pred, transport::TimePoint limit) {
    while (now_ < limit) {
      if (pred()) return true;
      step();
    }
    return pred();
  }
  transport::TimePoint now() const { return now_; }

 private:
  struct Node { Endpoint* ep; PeerAddress addr; };
  struct InFlight {
    transport::TimePoint at;
    std::uint64_t order;
    PeerAddress from, to;
    std::vector<std::uint8_t> bytes;
    bool operator>(const InFlight& o) const { return at != o.at ? at > o.at : order > o.order; }
  };

  void step() {
    std::vector<std::uint8_t> buf(2048);
    for (auto& n : nodes_) {
      const auto d = n.ep->next_deadline();
      if (d && *d <= now_) n.ep->on_timeout(now_);
      while (auto t = n.ep->poll_transmit(buf, now_)) {
        std::vector<std::uint8_t> bytes(buf.begin(), buf.begin() + static_cast<long>(t->size));
        if (drop && drop(n.addr, bytes)) continue;
        wire_.push({now_ + delay_, order_++, n.addr, t->to, std::move(bytes)});
      }
    }
    while (!wire_.empty() && wire_.top().at <= now_) {
      const InFlight f = wire_.top();
      wire_.pop();
      for (auto& n : nodes_) {
        if (n.addr == f.to) { n.ep->on_datagram(f.bytes, f.from, now_); ++delivered; }
      }
    }
    // advance to the next event
    transport::TimePoint next = now_ + std::chrono::milliseconds(1);
    if (!wire_.empty()) next = std::min(next, wire_.top().at);
    for (auto& n : nodes_) {
      const auto d = n.ep->next_deadline();
      if (d) next = std::min(next, std::max(*d, now_ + std::chrono::microseconds(1)));
    }
    now_ = std::max(next, now_ + std::chrono::nanoseconds(1));
  }

  std::vector<Node> nodes_;
  std::priority_queue<InFlight, std::vector<InFlight>, std::greater<>> wire_;
  transport::Duration delay_ = std::chrono::milliseconds(5);
  transport::TimePoint now_ = transport::time_from_ns(1'000'000'000);
  std::uint64_t order_ = 0;
};

}  // namespace ncgw::udt::test
