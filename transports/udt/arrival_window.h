// Receiver-side arrival statistics (CPktTimeWindow(16, 64) in the library): packet arrival speed
// from a median-filtered window of 16 inter-arrival gaps, and link capacity from packet pairs.
#pragma once
#include <array>
#include <cstdint>

#include "transports/udt/wire.h"

namespace ncgw::udt {

class ArrivalWindow {
 public:
  // Starts the window at `now_us` (the first gap is measured from here).
  void reset(std::int64_t now_us);
  // Records a data packet arrival with sequence number `seq`.
  void on_arrival(std::int32_t seq, std::int64_t now_us);
  // Packets per second, or 0 if fewer than half the samples survive the median filter.
  std::int32_t arrival_rate() const;
  // Link capacity in packets per second from the packet-pair gaps (each at least 1 us).
  std::int32_t capacity() const;

 private:
  std::array<std::int32_t, wire::kArrivalWindow> gaps_{};
  std::array<std::int32_t, wire::kProbeWindow> probes_{};
  int gap_ptr_ = 0;
  int probe_ptr_ = 0;
  std::int64_t last_arrival_us_ = 0;
  std::int64_t probe1_us_ = 0;
  std::int32_t probe1_seq_ = -1;
};

}  // namespace ncgw::udt
