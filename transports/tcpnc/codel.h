// CoDel (RFC 8289) on the tunnel's entrance queue: when every packet has waited longer than
// `target` for at least `interval`, packets are dropped at the head, at a rate that grows with the
// square root of the drops, until the waiting time falls below the target. End hosts' TCP
// (loss-based or not) then keeps a short standing queue in the tunnel instead of filling it.
#pragma once
#include <cstdint>

#include "transports/common/time.h"

namespace ncgw::tcpnc {

using transport::Duration;
using transport::TimePoint;

// The CoDel dropping state machine (pure; time comes in).
class Codel {
 public:
  // Decides about the head packet, which arrived at `arrival`, at `now`, with `queued` packets
  // waiting (the head included) and the current `target` and `interval`. True: drop it (then ask
  // again about the next head).
  bool should_drop(TimePoint arrival, TimePoint now, std::size_t queued, Duration target, Duration interval);
  // Forgets the state (new session).
  void reset() { *this = Codel(); }
  std::uint64_t drops() const { return drops_; }
  bool dropping() const { return dropping_; }
  // Drops in the current dropping state (resumed near the last state's when re-entered soon).
  std::uint32_t count() const { return count_; }

 private:
  // Whether the sojourn has stayed above the target for an interval.
  bool above_for_interval(TimePoint arrival, TimePoint now, std::size_t queued, Duration target, Duration interval);
  // Next drop time: `t` + interval / sqrt(count).
  static TimePoint control_law(TimePoint t, Duration interval, std::uint32_t count);

  TimePoint first_above_{}, drop_next_{};
  bool have_first_above_ = false, dropping_ = false;
  std::uint32_t count_ = 0, last_count_ = 0;
  std::uint64_t drops_ = 0;
};

}  // namespace ncgw::tcpnc
