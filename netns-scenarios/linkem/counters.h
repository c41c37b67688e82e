// Per-direction frame and byte counters of linkem.
#pragma once
#include <cstdint>

namespace linkem {

// What happened to the frames of one direction so far.
struct Counters {
  std::uint64_t frames_in = 0;        // frames read from the ingress interface
  std::uint64_t bytes_in = 0;
  std::uint64_t frames_out = 0;       // frames written to the egress interface (duplicates too)
  std::uint64_t bytes_out = 0;
  std::uint64_t dropped_loss = 0;     // dropped by the loss model
  std::uint64_t dropped_queue = 0;    // dropped by the drop-tail queue limit
  std::uint64_t dropped_tx = 0;       // the egress write failed (kernel refused)
  std::uint64_t duplicated = 0;       // extra copies scheduled
  std::uint64_t reordered = 0;        // frames that skipped the delay line
  std::uint64_t queue_packets = 0;    // current queue occupancy (frames not yet serialised)
  std::uint64_t queue_bytes = 0;
  std::uint64_t queue_max_packets = 0;  // highest occupancy seen
};

}  // namespace linkem
