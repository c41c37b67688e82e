#include "transports/udt/arrival_window.h"

#include <algorithm>
#include <cmath>

#include "transports/udt/seq.h"

namespace ncgw::udt {

void ArrivalWindow::reset(std::int64_t now_us) {
  gaps_.fill(1'000'000);  // library initial values: 1 s gaps, 1 ms probe gaps
  probes_.fill(1'000);
  gap_ptr_ = probe_ptr_ = 0;
  last_arrival_us_ = now_us;
  probe1_seq_ = -1;
}

void ArrivalWindow::on_arrival(std::int32_t seq, std::int64_t now_us) {
  // A gap under the clock's 1 us resolution counts as 1 us, as for probe pairs below: the
  // datagrams of one UDP GSO send reach a local receiver with one time stamp, and with a 0 us
  // median arrival_rate() finds no rate at all, so the sender's window stops following the
  // receive rate (docs/udt-wire.md, "Arrival times under 1 us").
  const std::int64_t gap = std::clamp<std::int64_t>(now_us - last_arrival_us_, 1, 0x7FFFFFFF);
  gaps_[gap_ptr_] = static_cast<std::int32_t>(gap);
  gap_ptr_ = (gap_ptr_ + 1) % wire::kArrivalWindow;
  last_arrival_us_ = now_us;
  if ((seq & wire::kProbeMask) == 0) {
    probe1_us_ = now_us;
    probe1_seq_ = seq;
  } else if ((seq & wire::kProbeMask) == 1 && probe1_seq_ >= 0 && seq::inc(probe1_seq_) == seq) {
    // only a true pair counts (the library also records a gap after a lost first probe)
    // A pair that arrives within one microsecond counts as 1 us apart: a link at least that
    // fast, not one of unknown speed (a 0 us median would give no capacity at all).
    probes_[probe_ptr_] = static_cast<std::int32_t>(std::max<std::int64_t>(now_us - probe1_us_, 1));
    probe_ptr_ = (probe_ptr_ + 1) % wire::kProbeWindow;
    probe1_seq_ = -1;
  }
}

std::int32_t ArrivalWindow::arrival_rate() const {
  auto copy = gaps_;
  std::nth_element(copy.begin(), copy.begin() + copy.size() / 2, copy.end());
  const std::int64_t median = copy[copy.size() / 2];
  const std::int64_t upper = median << 3;
  const std::int64_t lower = median >> 3;
  std::int64_t sum = 0;
  int count = 0;
  for (auto g : gaps_) {
    if (g < upper && g > lower) { ++count; sum += g; }
  }
  if (count <= wire::kArrivalWindow / 2 || sum <= 0) return 0;
  return static_cast<std::int32_t>(std::ceil(1e6 / (static_cast<double>(sum) / count)));
}

std::int32_t ArrivalWindow::capacity() const {
  auto copy = probes_;
  std::nth_element(copy.begin(), copy.begin() + copy.size() / 2, copy.end());
  const std::int64_t median = copy[copy.size() / 2];
  const std::int64_t upper = median << 3;
  const std::int64_t lower = median >> 3;
  std::int64_t sum = median;
  int count = 1;
  for (auto g : probes_) {
    if (g < upper && g > lower) { ++count; sum += g; }
  }
  if (sum <= 0) return 0;
  const double c = std::ceil(1e6 / (static_cast<double>(sum) / count));
  return c > 0x7FFFFFFF ? 0x7FFFFFFF : static_cast<std::int32_t>(c);
}

}  // namespace ncgw::udt
