#include "transports/udt/channel_map.h"

#include "transports/common/flow_key.h"

namespace ncgw::udt {
namespace {

// SplitMix64's finaliser: the weight of a (bucket, slot) pair.
std::uint64_t weight(std::size_t bucket, int slot) {
  std::uint64_t z = (static_cast<std::uint64_t>(bucket) << 8 | static_cast<std::uint64_t>(slot)) +
                    0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

std::size_t ChannelMap::bucket_of(std::span<const std::uint8_t> ip_packet) {
  const auto key = transport::parse_flow(ip_packet);
  return key ? static_cast<std::size_t>(transport::hash(*key) % kBuckets) : 0;
}

void ChannelMap::set_active(std::uint64_t slot_mask) {
  active_ = slot_mask;
  for (std::size_t b = 0; b < kBuckets; ++b) {
    int best = kNone;
    std::uint64_t best_weight = 0;
    for (int s = 0; s < kMaxSlots; ++s) {
      if (!(slot_mask >> s & 1)) continue;
      const std::uint64_t w = weight(b, s);
      if (best == kNone || w > best_weight) best = s, best_weight = w;
    }
    buckets_[b].target = static_cast<std::int8_t>(best);
  }
}

void ChannelMap::move(Bucket& k) {
  if (k.slot == k.target) return;
  if (k.slot != kNone) ++moves_;
  k.slot = k.target;
  k.last_queued = 0;
}

bool ChannelMap::in_use(int slot) const {
  for (const Bucket& k : buckets_) {
    if (k.slot == slot) return true;
  }
  return false;
}

}  // namespace ncgw::udt
