// Per-direction link settings of linkem and their text form ("delay=10ms rate=5mbit loss=...").
// Pure: no I/O. The same grammar is used on the command line, the control socket and schedules.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace linkem {

// Which loss process a direction applies.
enum class LossKind { none, bernoulli, gilbert, pattern };

// One inclusive range of 1-based frame ordinals dropped by the deterministic pattern.
struct FrameRange {
  std::uint64_t first = 0;
  std::uint64_t last = 0;
};

// Loss model parameters (Gilbert-Elliott: p = P(good->bad), r = P(bad->good)).
struct LossSettings {
  LossKind kind = LossKind::none;
  double rate = 0.0;               // bernoulli: drop probability
  double p = 0.0;                  // gilbert: P(good -> bad) per frame
  double r = 1.0;                  // gilbert: P(bad -> good) per frame
  double loss_good = 0.0;          // gilbert: drop probability in the good state
  double loss_bad = 1.0;           // gilbert: drop probability in the bad state
  std::vector<FrameRange> ranges;  // pattern: frames to drop (1-based ordinals at the loss stage)
  std::uint64_t period = 0;        // pattern: repeat every `period` frames (0: once)
};

// Shape of the jitter distribution.
enum class JitterDist { uniform, normal };

// Everything one direction of the link does to frames.
struct DirectionSettings {
  std::int64_t delay_ns = 0;        // propagation delay
  std::int64_t jitter_ns = 0;       // uniform: +-jitter; normal: standard deviation
  JitterDist jitter_dist = JitterDist::uniform;
  bool jitter_reorders = false;     // false: a frame never leaves before an earlier one
  std::uint64_t rate_bps = 0;       // 0: unlimited; counts frame bytes + overhead
  std::uint32_t overhead_bytes = 0; // added per frame for the rate (e.g. 24: preamble+FCS+IFG)
  std::uint64_t limit_packets = 1000;  // drop-tail queue limit (frames waiting or serialising)
  std::uint64_t limit_bytes = 0;       // 0: no byte limit
  LossSettings loss;
  bool loss_ip_only = true;         // non-IP frames (ARP) are never dropped by the loss model
  double duplicate = 0.0;           // probability a frame is sent twice
  double reorder = 0.0;             // probability a frame skips the delay line (overtakes)
};

// Applies "key=value" tokens (whitespace separated) to `s`; keys not named keep their value.
// Returns an empty string on success, else a message naming the bad token.
std::string apply_spec(const std::string& spec, DirectionSettings& s);

// The settings in the same grammar apply_spec reads (round-trips).
std::string to_spec(const DirectionSettings& s);

// Parses "10ms", "1.5ms", "200us", "2s", "5ns", "0" into nanoseconds; false on error.
bool parse_duration(const std::string& text, std::int64_t& ns);

// Parses "5mbit", "1.5Mbit", "100kbit", "1gbit", "3000000" (bit/s) into bit/s; false on error.
bool parse_rate(const std::string& text, std::uint64_t& bps);

}  // namespace linkem
