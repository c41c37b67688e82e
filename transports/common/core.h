// The interface every transport core implements (docs/ARCHITECTURE.md, "sans-I/O protocol cores").
// A core is fed datagrams, IP packets and timeouts, and drained of datagrams and delivered packets.
// It never reads a clock, opens a socket or sleeps; buffers belong to the caller. Datagrams move
// one at a time or in batches (on_datagrams, poll_transmits): a layer that runs a stage over a
// whole batch (the secure layer opens, or seals, every record of it in one pass) overrides the
// batch calls; the others inherit loops over the single-datagram calls.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "transports/common/time.h"

namespace ncgw::transport {

// What became of an IP packet offered to Core::send.
enum class SendResult : std::uint8_t {
  accepted,        // queued; a reliable core now owes its delivery or a counted drop
  buffer_full,     // sending buffer full: dropped at the tunnel entrance (counted by the core)
  too_big,         // larger than the core's maximum payload
  not_connected,   // no session yet and the core does not queue before the handshake
};

// Human-readable name of a SendResult, for logs and counters.
const char* to_string(SendResult r);

// One named figure a core reports for `ncgw status` (counters and gauges alike).
struct StatEntry {
  std::string name;   // snake_case key, stable across versions
  double value = 0;   // counters are whole numbers carried as double
};

// Most datagrams one batch call moves (the UDP port's sendmmsg / recvmmsg batch).
inline constexpr std::size_t kMaxBatch = 64;

// One datagram of a received batch and when it arrived.
struct Arrival {
  std::span<const std::uint8_t> bytes;
  TimePoint at;
};

// The sans-I/O transport state machine that gateway drivers and the simulator bind to.
class Core {
 public:
  virtual ~Core() = default;

  // A UDP payload from the peer arrived at time `now`.
  virtual void on_datagram(std::span<const std::uint8_t> bytes, TimePoint now) = 0;
  // Datagrams from the peer, in arrival order (the data path passes up to kMaxBatch); the same
  // as on_datagram for each in turn. The bytes are the caller's and need not outlive the call.
  virtual void on_datagrams(std::span<const Arrival> batch);
  // The deadline returned by next_deadline() has passed.
  virtual void on_timeout(TimePoint now) = 0;
  // An IP packet from the TUN to carry to the peer.
  virtual SendResult send(std::span<const std::uint8_t> ip_packet, TimePoint now) = 0;
  // Writes the next datagram to put on the wire into `out`; returns its length, or nothing.
  virtual std::optional<std::size_t> poll_transmit(std::span<std::uint8_t> out, TimePoint now) = 0;
  // Writes the next datagrams into slots[0], slots[1], ... (at most kMaxBatch) and their lengths
  // into lengths[i]; returns how many. Fewer than slots.size() only when nothing more can go at
  // `now`. The same as poll_transmit into each slot in turn.
  virtual std::size_t poll_transmits(std::span<const std::span<std::uint8_t>> slots, std::span<std::size_t> lengths,
                                     TimePoint now);
  // Copies the next IP packet for the TUN, in order, into `out`; returns its length, or nothing.
  virtual std::optional<std::size_t> poll_deliver(std::span<std::uint8_t> out) = 0;
  // When on_timeout must next be called, if ever.
  virtual std::optional<TimePoint> next_deadline() const = 0;
  // Largest IP packet send() accepts (the TUN MTU follows from it).
  virtual std::size_t max_payload() const = 0;
  // Counters and gauges for status and metrics (off the hot path; may allocate).
  virtual std::vector<StatEntry> stats() const = 0;
};

}  // namespace ncgw::transport
