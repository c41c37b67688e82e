// The receiver's record of which transmission numbers arrived, as at most kMaxAckRanges + 1
// disjoint ranges, newest first (QUIC-style ACK ranges). When full, the oldest range is forgotten.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "transports/tcpnc/packet.h"

namespace ncgw::tcpnc {

// Fixed-size set of received transmission numbers, kept as descending ranges.
class AckRanges {
 public:
  // Records `tx`; returns false if it was already recorded (a duplicate datagram).
  bool insert(std::uint64_t tx);
  // Whether `tx` is recorded.
  bool contains(std::uint64_t tx) const;
  // Copies the newest ranges (at most kAckRangesSent + 1) into an ACK frame (ranges, range_count,
  // largest).
  void fill(AckFrame& a) const;
  // Forgets everything (new session).
  void clear() { count_ = 0; }
  bool empty() const { return count_ == 0; }
  std::uint64_t largest() const { return ranges_[0].largest; }  // requires !empty()
  std::size_t count() const { return count_; }

 private:
  // Inserts a one-number range at position i, shifting older ones (dropping the oldest if full).
  void insert_at(std::size_t i, std::uint64_t tx);
  // Joins ranges i and i + 1 if they touch.
  void merge_at(std::size_t i);

  std::array<AckRange, kMaxAckRanges + 1> ranges_{};
  std::size_t count_ = 0;
};

}  // namespace ncgw::tcpnc
