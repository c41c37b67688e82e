#include "transports/tcpnc/ack_ranges.h"

#include <algorithm>

namespace ncgw::tcpnc {

void AckRanges::insert_at(std::size_t i, std::uint64_t tx) {
  if (count_ == ranges_.size()) {
    if (i == count_) return;  // older than everything we keep: forget it
    --count_;
  }
  for (std::size_t j = count_; j > i; --j) ranges_[j] = ranges_[j - 1];
  ranges_[i] = {tx, tx};
  ++count_;
}

void AckRanges::merge_at(std::size_t i) {
  if (i + 1 >= count_ || ranges_[i + 1].largest + 1 < ranges_[i].smallest) return;
  ranges_[i].smallest = ranges_[i + 1].smallest;
  for (std::size_t j = i + 1; j + 1 < count_; ++j) ranges_[j] = ranges_[j + 1];
  --count_;
}

bool AckRanges::insert(std::uint64_t tx) {
  for (std::size_t i = 0; i < count_; ++i) {
    AckRange& r = ranges_[i];
    if (tx > r.largest) {
      if (tx == r.largest + 1) { r.largest = tx; return true; }
      insert_at(i, tx);
      return true;
    }
    if (tx >= r.smallest) return false;
    if (tx + 1 == r.smallest) {
      r.smallest = tx;
      merge_at(i);
      return true;
    }
  }
  insert_at(count_, tx);
  return true;
}

bool AckRanges::contains(std::uint64_t tx) const {
  for (std::size_t i = 0; i < count_; ++i)
    if (tx >= ranges_[i].smallest && tx <= ranges_[i].largest) return true;
  return false;
}

void AckRanges::fill(AckFrame& a) const {
  a.range_count = static_cast<std::uint8_t>(std::min(count_, kAckRangesSent + 1));
  for (std::size_t i = 0; i < a.range_count; ++i) a.ranges[i] = ranges_[i];
  // The wire carries range lengths and gaps in 16 bits: clip what does not fit.
  if (count_ > 0 && a.ranges[0].largest - a.ranges[0].smallest > 0xFFFF) {
    a.ranges[0].smallest = a.ranges[0].largest - 0xFFFF;
    a.range_count = 1;
  }
  for (std::size_t i = 1; i < a.range_count; ++i) {
    const std::uint64_t gap = a.ranges[i - 1].smallest - a.ranges[i].largest - 2;
    if (gap > 0xFFFF) { a.range_count = static_cast<std::uint8_t>(i); break; }
    if (a.ranges[i].largest - a.ranges[i].smallest > 0xFFFF) a.ranges[i].smallest = a.ranges[i].largest - 0xFFFF;
  }
  a.largest = count_ > 0 ? ranges_[0].largest : 0;
}

}  // namespace ncgw::tcpnc
