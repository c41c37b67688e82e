// Receiver-side accounting of the plain sequence numbers (docs/plain-wire.md): gaps are counted
// as losses, a late arrival within the reorder window fills its gap again, duplicates are seen.
#pragma once
#include <cstdint>

namespace ncgw::plain {

// Monotonic counters of one receive direction; losses are gaps minus late fills.
struct SeqCounters {
  std::uint64_t gaps = 0;        // sequence numbers skipped when a later one arrived
  std::uint64_t late = 0;        // arrivals that filled a counted gap (reordering)
  std::uint64_t duplicates = 0;  // arrivals already seen, or older than the last resync, within the window
  std::uint64_t stale = 0;       // arrivals too far from the expected number to account for
  std::uint64_t resyncs = 0;     // restarts of the accounting (sender restarted, or a run of stale ones)
  // Datagrams lost as far as the receiver can tell (may fall when reordered ones arrive).
  std::uint64_t lost() const { return gaps >= late ? gaps - late : 0; }
};

// Tracks the highest sequence number seen and a 64-entry window below it.
class SeqTracker {
 public:
  // How far behind the highest sequence number a late arrival still fills a gap.
  static constexpr int kReorderWindow = 64;
  // The largest jump ahead counted as loss; larger jumps resynchronise instead.
  static constexpr int kMaxCountedGap = 8192;
  // Consecutive stale arrivals after which the tracker adopts the new numbering.
  static constexpr int kResyncAfter = 8;

  // Accounts one arriving sequence number.
  void on_arrival(std::uint16_t seq);
  const SeqCounters& counters() const { return counters_; }

 private:
  void on_late(int behind);
  void on_stale(std::uint16_t seq);
  void restart_at(std::uint16_t seq);

  bool started_ = false;
  std::uint16_t expected_ = 0;   // highest seen + 1
  std::uint64_t window_ = 0;     // bit i: (expected_ - 1 - i) arrived
  int stale_run_ = 0;            // consecutive stale arrivals
  SeqCounters counters_;
};

}  // namespace ncgw::plain
