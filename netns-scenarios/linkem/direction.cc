// One direction of an emulated link (see direction.h for the model).
#include "netns-scenarios/linkem/direction.h"

#include <algorithm>
#include <cmath>

namespace linkem {

Streams::Streams(std::uint64_t seed)
    : loss(seed ^ 0x6c6f7373ULL),
      jitter(seed ^ 0x6a697474ULL),
      duplicate(seed ^ 0x64757065ULL),
      reorder(seed ^ 0x72656f72ULL) {}

Direction::Direction(const DirectionSettings& s, std::uint64_t seed)
    : s_(s), seed_(seed), rng_(seed) {
  loss_.configure(s.loss);
}

void Direction::configure(const DirectionSettings& s) {
  s_ = s;
  loss_.configure(s.loss);
}

void Direction::drain(std::int64_t now_ns) {
  while (!queue_.empty() && queue_.front().finish_ns <= now_ns) {
    c_.queue_packets--;
    c_.queue_bytes -= queue_.front().len;
    queue_.pop_front();
  }
}

std::int64_t Direction::serialisation_ns(std::uint32_t len) const {
  if (s_.rate_bps == 0) return 0;
  std::uint64_t bits = (std::uint64_t{len} + s_.overhead_bytes) * 8;  // < 2^20: no overflow below
  return static_cast<std::int64_t>(bits * 1000000000ULL / s_.rate_bps);
}

std::int64_t Direction::jitter_draw() {
  if (s_.jitter_ns <= 0) return 0;
  double j = static_cast<double>(s_.jitter_ns);
  if (s_.jitter_dist == JitterDist::uniform) return std::llround((2 * rng_.jitter.uniform() - 1) * j);
  // Box-Muller from two uniforms of our own generator (portable across libraries).
  double u1 = 1.0 - rng_.jitter.uniform(), u2 = rng_.jitter.uniform();
  return std::llround(j * std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2));
}

std::int64_t Direction::delivery_time(std::int64_t finish_ns) {
  if (s_.reorder > 0 && rng_.reorder.bernoulli(s_.reorder)) {
    c_.reordered++;
    return finish_ns;  // skips the delay line: overtakes frames in flight
  }
  std::int64_t at = finish_ns + std::max<std::int64_t>(0, s_.delay_ns + jitter_draw());
  if (!s_.jitter_reorders) at = std::max(at, last_delivery_ns_);
  last_delivery_ns_ = std::max(last_delivery_ns_, at);
  return at;
}

Verdict Direction::offer(std::uint32_t len, std::int64_t now_ns, bool is_ip) {
  c_.frames_in++;
  c_.bytes_in += len;
  drain(now_ns);
  Verdict v;
  bool full = (s_.limit_packets && c_.queue_packets >= s_.limit_packets) ||
              (s_.limit_bytes && c_.queue_bytes + len > s_.limit_bytes);
  if (full) {
    c_.dropped_queue++;
    v.outcome = Outcome::queue_full;
    return v;
  }
  std::int64_t finish = std::max(now_ns, tx_free_ns_) + serialisation_ns(len);
  tx_free_ns_ = finish;
  if (finish > now_ns) {
    queue_.push_back({finish, len});
    c_.queue_packets++;
    c_.queue_bytes += len;
    c_.queue_max_packets = std::max(c_.queue_max_packets, c_.queue_packets);
  }
  bool lossy = is_ip || !s_.loss_ip_only;
  if (lossy && loss_.lose(rng_.loss, ++loss_ordinal_)) {
    c_.dropped_loss++;
    v.outcome = Outcome::lost;
    return v;
  }
  v.copies = 1;
  v.at[0] = delivery_time(finish);
  if (s_.duplicate > 0 && rng_.duplicate.bernoulli(s_.duplicate)) {
    c_.duplicated++;
    v.copies = 2;
    v.at[1] = delivery_time(finish);
  }
  return v;
}

void Direction::on_sent(std::uint32_t len, bool ok) {
  if (!ok) {
    c_.dropped_tx++;
    return;
  }
  c_.frames_out++;
  c_.bytes_out += len;
}

const Counters& Direction::counters(std::int64_t now_ns) {
  drain(now_ns);
  return c_;
}

}  // namespace linkem
