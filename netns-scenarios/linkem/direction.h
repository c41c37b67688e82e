// One direction of an emulated link: drop-tail queue, serialisation at a rate, loss on the wire,
// propagation delay with jitter, duplication and reordering. Pure (time is passed in, in ns).
//
// A frame offered at time `now` is queued behind the frames still serialising; if the queue is
// full (packets or bytes) it is dropped. Otherwise it finishes serialisation at
//   finish = max(now, previous finish) + (len + overhead) * 8 / rate,
// then meets the loss model (so a lost frame still used the link's time), then arrives at
//   finish + delay + jitter (never before the previous arrival unless jitter_reorders or reorder).
#pragma once
#include <cstdint>
#include <deque>

#include "netns-scenarios/linkem/counters.h"
#include "netns-scenarios/linkem/loss_model.h"
#include "netns-scenarios/linkem/settings.h"
#include "transports/common/rng.h"

namespace linkem {

// What happens to an offered frame.
enum class Outcome { forward, lost, queue_full };

// The decision for one offered frame: up to two copies with their delivery times (ns).
struct Verdict {
  Outcome outcome = Outcome::forward;
  int copies = 0;            // 0 (dropped), 1, or 2 (duplicated)
  std::int64_t at[2] = {0, 0};
};

// Random streams of one direction, each derived from the direction's seed so that changing one
// setting (say jitter) does not change the draws of another (the loss sequence).
struct Streams {
  explicit Streams(std::uint64_t seed);
  ncgw::transport::Rng loss, jitter, duplicate, reorder;
};

// Admission and timing logic of one direction.
class Direction {
 public:
  // A direction with settings `s` and every random draw derived from `seed`.
  Direction(const DirectionSettings& s, std::uint64_t seed);
  // Replaces the settings at run time (queue contents and Gilbert state are kept).
  void configure(const DirectionSettings& s);
  // Current settings.
  const DirectionSettings& settings() const { return s_; }
  // Decides the fate of a frame of `len` bytes arriving at `now_ns`; `is_ip` exempts non-IP
  // frames from loss when loss_ip_only is set.
  Verdict offer(std::uint32_t len, std::int64_t now_ns, bool is_ip = true);
  // Records that a copy of `len` bytes was written out (ok) or refused by the kernel.
  void on_sent(std::uint32_t len, bool ok);
  // Counters, with the queue occupancy brought up to `now_ns`.
  const Counters& counters(std::int64_t now_ns);
  // The seed all streams were derived from.
  std::uint64_t seed() const { return seed_; }

 private:
  // Forgets queued frames whose serialisation finished by `now_ns`.
  void drain(std::int64_t now_ns);
  // Serialisation time of a frame in ns at the configured rate (0 when unlimited).
  std::int64_t serialisation_ns(std::uint32_t len) const;
  // One delivery time: finish + delay + jitter, ordered unless reordering is allowed.
  std::int64_t delivery_time(std::int64_t finish_ns);
  // One jitter draw in ns.
  std::int64_t jitter_draw();

  struct Queued {
    std::int64_t finish_ns;
    std::uint32_t len;
  };
  DirectionSettings s_;
  std::uint64_t seed_;
  Streams rng_;
  LossModel loss_;
  Counters c_;
  std::deque<Queued> queue_;
  std::int64_t tx_free_ns_ = 0;      // when the serialiser becomes idle
  std::int64_t last_delivery_ns_ = 0;
  std::uint64_t loss_ordinal_ = 0;   // frames that reached the loss stage (1-based after ++)
};

}  // namespace linkem
