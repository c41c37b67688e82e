// What a coded retransmission round costs the path, measured. A round holds in-order delivery, and
// with it the end hosts' ACK clock, for about a round trip. Hosts with window to spare keep sending
// through it (a saturating source; a BBR host well below its send buffer); hosts whose window is
// used up (CUBIC hosts at the tunnel's entrance, any host at its send-buffer limit) send nothing
// until the hold ends, and the path idles once the entrance queue has drained. The meter compares
// the datagrams the tunnel sent over the min RTT after a round starts with what the path rate
// would have carried; the shortfall is what the round cost. Where input is short anyway (an
// application-limited flow) the path idles whatever the round does, and repairs cost nothing.
#pragma once
#include <algorithm>
#include <cstdint>

#include "transports/common/time.h"

namespace ncgw::tcpnc {

// Shortfalls of what the tunnel sent during rounds against the path rate, averaged.
class RoundCostMeter {
 public:
  // A round starts at `now` with `sent` datagrams sent so far, on a path that carries `path_rate`
  // a second. Ignored while a measurement runs (rounds in a row share one hold).
  void start(transport::TimePoint now, std::uint64_t sent, double path_rate);
  // Completes the running measurement once `hold` (the min RTT) has passed since it started.
  void update(transport::TimePoint now, std::uint64_t sent, transport::Duration hold);
  // Datagrams a round costs: the measured shortfalls, recent ones weighing most, or `assumed`
  // before the first.
  double cost(double assumed) const { return samples_ > 0 ? std::max(0.0, cost_) : assumed; }
  // Measurements so far.
  std::uint64_t samples() const { return samples_; }
  // Forgets everything (a new session).
  void reset() { *this = RoundCostMeter(); }

 private:
  static constexpr double kWeight = 0.25;  // of each new measurement in the average
  bool running_ = false;
  transport::TimePoint start_{};
  std::uint64_t sent_at_start_ = 0;
  double path_rate_ = 0;  // datagrams a second the path carried when the running round started
  double cost_ = 0;
  std::uint64_t samples_ = 0;
};

}  // namespace ncgw::tcpnc
