// Traffic for simulated endpoints: sources that feed Core::send like a TUN device, and a sink that
// checks the delivered stream is exactly once and in order, byte for byte.
// Source packet layout: [magic u32][stream u32][seq u64][length u16][offered at, ns u64][pattern...],
// big-endian; the pattern bytes are a function of (stream, seq, offset), so corruption is caught,
// and the offer time gives each packet's delivery delay.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "transports/common/core.h"

namespace ncgw::sim {

using transport::Core;
using transport::Duration;
using transport::TimePoint;

// Smallest source packet (the header above).
inline constexpr std::size_t kSourceHeaderBytes = 26;

// Writes source packet (stream, seq), offered at `offered`, of `size` bytes into `out`
// (size >= kSourceHeaderBytes).
void stamp_source_packet(std::span<std::uint8_t> out, std::uint32_t stream, std::uint64_t seq,
                         TimePoint offered = {});

// Offers packets to a core's send().
class Source {
 public:
  virtual ~Source() = default;
  // Offers whatever is due at `now`.
  virtual void pump(Core& core, TimePoint now) = 0;
  // Next time pump() has something new to offer, if it waits on time.
  virtual std::optional<TimePoint> next_time() const { return std::nullopt; }
};

// A saturating sender: offers packets until send() refuses one, and offers the refused packet again
// on the next pump (as a TCP sender retransmits into the TUN). Optional packet-count limit.
class BulkSource : public Source {
 public:
  // Packets of `size` bytes on `stream`; stops after `limit` accepted packets (0: never).
  BulkSource(std::size_t size, std::uint32_t stream, std::uint64_t limit = 0);
  void pump(Core& core, TimePoint now) override;
  // Packets accepted by the core.
  std::uint64_t accepted() const { return next_seq_; }
  // Offers refused with buffer_full (each retry counts).
  std::uint64_t refused() const { return refused_; }
  // Starts a fresh stream (a restarted end host): sequence numbers restart at 0.
  void restart(std::uint32_t stream) { stream_ = stream; next_seq_ = 0; }

 private:
  std::size_t size_;
  std::uint32_t stream_;
  std::uint64_t limit_;
  std::uint64_t next_seq_ = 0;
  std::uint64_t refused_ = 0;
  std::vector<std::uint8_t> buf_;
};

// A window-limited sender, as an end host's TCP looks to the tunnel once the tunnel hides the
// link's loss: at most `window` packets offered beyond `delivered()`, the sequence number the far
// sink expects next (a packet the tunnel's entrance dropped counts as done once a later one
// arrives, as SACK would tell a TCP sender); a refused packet is offered again on the next pump.
// Its input is closed-loop and application-limited whenever the window, not the tunnel, limits.
class WindowSource : public Source {
 public:
  WindowSource(std::size_t size, std::uint32_t stream, std::uint64_t window, std::function<std::uint64_t()> delivered);
  void pump(Core& core, TimePoint now) override;
  // Packets accepted by the core.
  std::uint64_t accepted() const { return next_seq_; }
  // Changes the window (an end host's TCP growing it in slow start); applies at the next pump.
  void set_window(std::uint64_t window) { window_ = window; }

 private:
  std::size_t size_;
  std::uint32_t stream_;
  std::uint64_t window_;
  std::function<std::uint64_t()> delivered_;
  std::uint64_t next_seq_ = 0;
  std::vector<std::uint8_t> buf_;
};

// A constant-rate source (packets every `interval`), e.g. for light-load or keep-alive tests.
class PacedSource : public Source {
 public:
  // Packets of `size` bytes on `stream` every `interval`, from `start`, up to `limit` (0: never stop).
  PacedSource(std::size_t size, std::uint32_t stream, Duration interval, TimePoint start,
              std::uint64_t limit = 0);
  void pump(Core& core, TimePoint now) override;
  std::optional<TimePoint> next_time() const override;
  // Packets accepted by the core.
  std::uint64_t accepted() const { return accepted_; }
  // Packets the core refused (not offered again: a paced source models UDP-like traffic).
  std::uint64_t refused() const { return refused_; }

 private:
  std::size_t size_;
  std::uint32_t stream_;
  Duration interval_;
  TimePoint next_;
  std::uint64_t limit_;
  std::uint64_t seq_ = 0, accepted_ = 0, refused_ = 0;
  std::vector<std::uint8_t> buf_;
};

// Checks delivered packets: per stream, sequence numbers strictly increasing by one (or, with
// allow_gaps, strictly increasing), payload intact. Records the first error and keeps counting.
class Sink {
 public:
  // Checks one delivered packet at `now`.
  void receive(std::span<const std::uint8_t> packet, TimePoint now);
  // Tolerates gaps (never duplicates or reordering): for tests that restart a side on purpose.
  void set_allow_gaps(bool allow) { allow_gaps_ = allow; }

  std::uint64_t packets() const { return packets_; }
  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t errors() const { return errors_; }
  std::uint64_t gaps() const { return gaps_; }
  // First error in words, empty if none.
  const std::string& first_error() const { return first_error_; }
  // Time of the last delivery.
  TimePoint last_time() const { return last_time_; }
  // Next expected sequence number of the current stream.
  std::uint64_t expected() const { return expected_; }
  // Delivery delay (delivery time minus offer time) of the packets received so far: mean, largest
  // and the q-quantile (1 ms resolution, up to 4 s).
  double mean_delay_ms() const { return delays_ ? delay_sum_ms_ / static_cast<double>(delays_) : 0.0; }
  double max_delay_ms() const { return delay_max_ms_; }
  double delay_quantile_ms(double q) const;
  // Forgets the delays recorded so far (e.g. after a warm-up).
  void reset_delays();

 private:
  // Records an error.
  void fail(const std::string& what);
  // Records one packet's delivery delay.
  void record_delay(Duration d);

  bool allow_gaps_ = false;
  bool have_stream_ = false;
  std::uint32_t stream_ = 0;
  std::uint64_t expected_ = 0;
  std::uint64_t packets_ = 0, bytes_ = 0, errors_ = 0, gaps_ = 0;
  std::string first_error_;
  TimePoint last_time_{};
  std::uint64_t delays_ = 0;
  double delay_sum_ms_ = 0, delay_max_ms_ = 0;
  std::vector<std::uint64_t> delay_histogram_ = std::vector<std::uint64_t>(4001, 0);  // 1 ms buckets
};

}  // namespace ncgw::sim
