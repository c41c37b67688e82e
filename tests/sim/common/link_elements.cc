#include "tests/sim/common/link_elements.h"

#include <algorithm>
#include <cmath>

namespace ncgw::sim {

std::optional<TimePoint> Delay::process(std::span<const std::uint8_t>, TimePoint at) {
  count_in();
  return at + d_;
}

Bottleneck::Bottleneck(double bits_per_second, std::size_t overhead_bytes, std::size_t queue_packets,
                       std::size_t queue_bytes)
    : bits_per_second_(bits_per_second), overhead_(overhead_bytes), queue_packets_(queue_packets),
      queue_bytes_(queue_bytes) {}

void Bottleneck::expire(TimePoint at) {
  while (!in_queue_.empty() && in_queue_.front().first <= at) {
    bytes_in_queue_ -= in_queue_.front().second;
    in_queue_.pop_front();
  }
}

std::optional<TimePoint> Bottleneck::process(std::span<const std::uint8_t> packet, TimePoint at) {
  count_in();
  expire(at);
  const std::size_t wire = packet.size() + overhead_;
  if (queue_packets_ != 0 && in_queue_.size() >= queue_packets_) return drop();
  if (queue_bytes_ != 0 && bytes_in_queue_ + wire > queue_bytes_) return drop();
  const auto ser_ns = static_cast<std::int64_t>(std::llround(wire * 8.0 * 1e9 / bits_per_second_));
  const TimePoint start = std::max(at, free_at_);
  free_at_ = start + Duration(ser_ns);
  in_queue_.emplace_back(free_at_, wire);
  bytes_in_queue_ += wire;
  max_occupancy_ = std::max(max_occupancy_, in_queue_.size());
  return free_at_;
}

std::optional<TimePoint> BernoulliLoss::process(std::span<const std::uint8_t>, TimePoint at) {
  count_in();
  if (rng_.bernoulli(p_)) return drop();
  return at;
}

GilbertElliottLoss::GilbertElliottLoss(double p, double r, std::uint64_t seed, double loss_good,
                                       double loss_bad)
    : p_(p), r_(r), loss_good_(loss_good), loss_bad_(loss_bad), rng_(seed) {
  // Start in the stationary distribution so short runs are unbiased.
  bad_ = (p_ + r_) > 0 && rng_.bernoulli(p_ / (p_ + r_));
}

GilbertElliottLoss GilbertElliottLoss::from_rate_and_burst(double e, double burst, std::uint64_t seed) {
  const double r = 1.0 / burst;
  const double p = e * r / (1.0 - e);
  return GilbertElliottLoss(p, r, seed);
}

std::optional<TimePoint> GilbertElliottLoss::process(std::span<const std::uint8_t>, TimePoint at) {
  count_in();
  // Transition first, then draw the loss in the new state (the chain's state is per packet).
  bad_ = bad_ ? !rng_.bernoulli(r_) : rng_.bernoulli(p_);
  if (rng_.bernoulli(bad_ ? loss_bad_ : loss_good_)) return drop();
  return at;
}

std::optional<TimePoint> LossMask::process(std::span<const std::uint8_t>, TimePoint at) {
  const std::uint64_t i = count_in();
  for (const auto& [first, last] : ranges_)
    if (i >= first && i <= last) return drop();
  return at;
}

std::optional<TimePoint> DropIf::process(std::span<const std::uint8_t> packet, TimePoint at) {
  const std::uint64_t i = count_in();
  if (pred_(packet, i, at)) return drop();
  return at;
}

std::optional<TimePoint> Reorder::process(std::span<const std::uint8_t>, TimePoint at) {
  count_in();
  if (rng_.bernoulli(p_)) { ++reordered_; return at + extra_; }
  return at;
}

}  // namespace ncgw::sim
