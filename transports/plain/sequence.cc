#include "transports/plain/sequence.h"

namespace ncgw::plain {

void SeqTracker::restart_at(std::uint16_t seq) {
  started_ = true;
  expected_ = static_cast<std::uint16_t>(seq + 1);
  window_ = ~std::uint64_t{0};   // nothing before the sync point was counted, so none is late
  stale_run_ = 0;
}

void SeqTracker::on_arrival(std::uint16_t seq) {
  if (!started_) return restart_at(seq);
  // Signed distance from the expected number, modulo 2^16.
  const int ahead = static_cast<std::int16_t>(static_cast<std::uint16_t>(seq - expected_));
  if (ahead != 0 && seq == 0) {
    ++counters_.resyncs;   // a sender's first datagram: it restarted
    return restart_at(seq);
  }
  if (ahead >= 0 && ahead <= kMaxCountedGap) {
    stale_run_ = 0;
    counters_.gaps += static_cast<std::uint64_t>(ahead);
    const int shift = ahead + 1;
    window_ = (shift >= 64 ? 0 : window_ << shift) | 1;
    expected_ = static_cast<std::uint16_t>(seq + 1);
    return;
  }
  if (ahead < 0 && -ahead <= kReorderWindow) return on_late(-ahead - 1);
  on_stale(seq);
}

// Too far either way to tell loss from a straggler or a restart: ignored, unless it keeps happening.
void SeqTracker::on_stale(std::uint16_t seq) {
  ++counters_.stale;
  if (++stale_run_ < kResyncAfter) return;
  ++counters_.resyncs;
  restart_at(seq);
}

void SeqTracker::on_late(int behind) {
  stale_run_ = 0;
  const std::uint64_t bit = std::uint64_t{1} << behind;
  if (window_ & bit) {
    ++counters_.duplicates;
    return;
  }
  window_ |= bit;
  ++counters_.late;
}

}  // namespace ncgw::plain
