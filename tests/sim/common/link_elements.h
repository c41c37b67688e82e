// Composable elements of a simulated one-way link (delay, rate + drop-tail queue, random and exact
// losses, reordering). A Link applies its elements, in order, to each packet at the moment the
// packet enters the link; each element maps (packet, time it reaches the element) to the time it
// leaves the element, or drops it. Elements that depend on order (the bottleneck queue) must come
// before elements that break order (reordering).
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "transports/common/rng.h"
#include "transports/common/time.h"

namespace ncgw::sim {

using transport::Duration;
using transport::Rng;
using transport::TimePoint;

// One stage of a link. process() is called once per packet, in the order packets enter the link.
class LinkElement {
 public:
  virtual ~LinkElement() = default;
  // Time the packet leaves this element, or nothing if the element drops it.
  virtual std::optional<TimePoint> process(std::span<const std::uint8_t> packet, TimePoint at) = 0;
  // Short name for logs.
  virtual std::string name() const = 0;
  // Packets this element has dropped.
  std::uint64_t dropped() const { return dropped_; }
  // Packets that reached this element.
  std::uint64_t seen() const { return seen_; }

 protected:
  // Counts one packet reaching the element; returns its 0-based index.
  std::uint64_t count_in() { return seen_++; }
  // Counts a drop and returns nothing, for `return drop();`.
  std::optional<TimePoint> drop() { ++dropped_; return std::nullopt; }

 private:
  std::uint64_t dropped_ = 0;
  std::uint64_t seen_ = 0;
};

// Constant propagation delay.
class Delay : public LinkElement {
 public:
  // Every packet is delayed by `d`.
  explicit Delay(Duration d) : d_(d) {}
  std::optional<TimePoint> process(std::span<const std::uint8_t>, TimePoint at) override;
  std::string name() const override { return "delay"; }

 private:
  Duration d_;
};

// A FIFO bottleneck: per-packet serialisation at a fixed rate behind a drop-tail queue.
// The queue holds packets waiting or in service; limits of 0 mean unlimited.
class Bottleneck : public LinkElement {
 public:
  // `bits_per_second` line rate; `overhead_bytes` added per packet (e.g. 28 for IPv4 + UDP);
  // queue limits in packets and bytes (0: unlimited).
  Bottleneck(double bits_per_second, std::size_t overhead_bytes, std::size_t queue_packets,
             std::size_t queue_bytes = 0);
  std::optional<TimePoint> process(std::span<const std::uint8_t> packet, TimePoint at) override;
  std::string name() const override { return "bottleneck"; }
  // Changes the line rate for packets that enter from now on (a capacity step, e.g. cross traffic
  // of constant rate taking part of the link).
  void set_rate(double bits_per_second) { bits_per_second_ = bits_per_second; }
  // Most packets ever queued at once (including the one in service).
  std::size_t max_occupancy() const { return max_occupancy_; }

 private:
  // Forgets packets whose serialisation ended at or before `at`.
  void expire(TimePoint at);

  double bits_per_second_;
  std::size_t overhead_;
  std::size_t queue_packets_;
  std::size_t queue_bytes_;
  std::deque<std::pair<TimePoint, std::size_t>> in_queue_;  // (departure time, wire bytes)
  std::size_t bytes_in_queue_ = 0;
  std::size_t max_occupancy_ = 0;
  TimePoint free_at_{};
};

// Independent (Bernoulli) loss with probability p.
class BernoulliLoss : public LinkElement {
 public:
  // Drops each packet with probability `p`, drawing from a generator seeded with `seed`.
  BernoulliLoss(double p, std::uint64_t seed) : p_(p), rng_(seed) {}
  std::optional<TimePoint> process(std::span<const std::uint8_t>, TimePoint at) override;
  std::string name() const override { return "bernoulli"; }

 private:
  double p_;
  Rng rng_;
};

// Two-state Gilbert-Elliott loss: p = P(good -> bad), r = P(bad -> good), per packet.
class GilbertElliottLoss : public LinkElement {
 public:
  // Chain with transition probabilities p, r and loss probabilities in each state.
  GilbertElliottLoss(double p, double r, std::uint64_t seed, double loss_good = 0.0,
                     double loss_bad = 1.0);
  // Chain with stationary loss rate `e` and mean burst length `burst` (loss_bad = 1, loss_good = 0).
  static GilbertElliottLoss from_rate_and_burst(double e, double burst, std::uint64_t seed);
  std::optional<TimePoint> process(std::span<const std::uint8_t>, TimePoint at) override;
  std::string name() const override { return "gilbert_elliott"; }

 private:
  double p_, r_, loss_good_, loss_bad_;
  bool bad_ = false;
  Rng rng_;
};

// Exact loss pattern: drops the packets whose 0-based index (counted at this element) falls in one
// of the inclusive ranges [first, last].
class LossMask : public LinkElement {
 public:
  // Drops the packets with index in any of `ranges`.
  explicit LossMask(std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges)
      : ranges_(std::move(ranges)) {}
  std::optional<TimePoint> process(std::span<const std::uint8_t>, TimePoint at) override;
  std::string name() const override { return "loss_mask"; }

 private:
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges_;
};

// Drops the packets a predicate selects (sees the bytes and the 0-based index at this element).
class DropIf : public LinkElement {
 public:
  using Predicate = std::function<bool(std::span<const std::uint8_t>, std::uint64_t index, TimePoint at)>;
  // Drops every packet for which `pred` returns true.
  explicit DropIf(Predicate pred) : pred_(std::move(pred)) {}
  std::optional<TimePoint> process(std::span<const std::uint8_t> packet, TimePoint at) override;
  std::string name() const override { return "drop_if"; }

 private:
  Predicate pred_;
};

// Reordering: with probability p a packet is held back by an extra delay, so later packets pass it.
class Reorder : public LinkElement {
 public:
  // Holds back a fraction `p` of packets by `extra`.
  Reorder(double p, Duration extra, std::uint64_t seed) : p_(p), extra_(extra), rng_(seed) {}
  std::optional<TimePoint> process(std::span<const std::uint8_t>, TimePoint at) override;
  std::string name() const override { return "reorder"; }
  // Packets held back so far.
  std::uint64_t reordered() const { return reordered_; }

 private:
  double p_;
  Duration extra_;
  Rng rng_;
  std::uint64_t reordered_ = 0;
};

}  // namespace ncgw::sim
