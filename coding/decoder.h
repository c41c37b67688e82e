// Receiver side: incremental Gauss-Jordan elimination over a sliding window of CWs, the
// cumulative-DoF ("seen") number the TCP/NC ACK carries, and in-order release of decoded sources
// with their exact lengths (docs/tcpnc-mechanism.md "Two sequence spaces"). Memory is bounded: all row
// buffers are allocated at construction.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "coding/backend.h"
#include "coding/header.h"

namespace ncgw::coding {

// Sizes and identity of a receiver's coding stream (must match the sender's EncoderConfig).
struct DecoderConfig {
  std::size_t max_open = 16;            // CW slots: combinations for CWs further ahead are refused
                                        // (use at least the sender's EncoderConfig::max_open)
  std::size_t max_n = kMaxWindow;       // largest n accepted (<= kMaxWindow)
  std::size_t max_packet = kMaxPacket;  // largest source accepted (<= kMaxPacket)
  Backend backend = Backend::kIsal;     // vector kernels
  std::uint64_t first_cw_id = 0;        // id of the stream's first CW
  std::uint64_t first_source = 0;       // source number of the stream's first source
};

// What one combination did.
enum class FeedResult : std::uint8_t {
  kInnovative,   // raised its CW's rank by one (and the seen number, if its CW is the oldest incomplete)
  kDuplicate,    // same source index, or same seed/coefficients and width, already held
  kDependent,    // linear combination of what the CW already holds: brings no DoF
  kStale,        // its CW is already complete (decoded) or released
  kOutOfWindow,  // its CW is beyond the max_open slots ahead of the oldest unreleased CW
  kMalformed,    // inconsistent with what is known (width/index/length/base), or unparsable
};

// True for kInnovative.
constexpr bool innovative(FeedResult r) { return r == FeedResult::kInnovative; }

// What the decoder knows about one unreleased CW (for ACKs: missing DoF per incomplete CW).
struct CwStatus {
  std::uint64_t cw_id = 0;     // the CW
  std::uint64_t base = 0;      // source number of its first source (valid if base_known)
  bool base_known = false;     // base learnt (from a packet of it, or the previous CW's end)
  unsigned n = 0;              // final n if n_final, else the largest width seen so far
  bool n_final = false;        // n known exactly (closed flag, or the next CW's base)
  unsigned rank = 0;           // DoF held
  unsigned missing = 0;        // n - rank (a lower bound while !n_final)
  bool complete = false;       // n_final && rank == n
};

// A source handed to the caller, in source-number order.
struct Released {
  std::uint64_t source_number = 0;  // CW base + index
  std::size_t length = 0;           // exact original packet length
};

// Decoder counters.
struct DecoderStats {
  std::uint64_t innovative = 0, duplicate = 0, dependent = 0, stale = 0, out_of_window = 0,
                malformed = 0, released = 0, corrupt = 0;  // corrupt: decoded length field invalid
};

class DecoderImpl;

// Sliding-window decoder; not thread-safe.
class Decoder {
 public:
  // Preallocates max_open x max_n row buffers.
  explicit Decoder(const DecoderConfig& cfg);
  ~Decoder();
  Decoder(Decoder&&) noexcept;
  Decoder& operator=(Decoder&&) noexcept;

  // Feeds one combination whose header carries full 64-bit cw_id and base.
  FeedResult feed(const CodingHeader& h, std::span<const std::uint8_t> payload);
  // Parses a datagram (coding header + payload), unwraps its 16-bit cw_id and 32-bit base against the
  // decoder's window, and feeds it.
  FeedResult feed_datagram(std::span<const std::uint8_t> datagram);

  // Cumulative DoF: base of the oldest incomplete CW + its rank (the TCP/NC ACK's source field).
  std::uint64_t seen() const;
  // Number of the next source to release (everything below was released).
  std::uint64_t next_release() const;
  // Length of the next in-order source if it is decoded, else nullopt.
  std::optional<std::size_t> next_length() const;
  // Copies the next in-order decoded source into `out` (needs >= next_length() bytes) and
  // advances; nullopt when none is ready or `out` is too small.
  std::optional<Released> pop(std::span<std::uint8_t> out);
  // The next in-order decoded source without copying (valid until the next non-const call);
  // follow with drop_front(). Empty span when none is ready.
  std::span<const std::uint8_t> front() const;
  // Advances past the source front() returned.
  void drop_front();

  // Status of an unreleased CW the decoder holds a slot for, else nullopt.
  std::optional<CwStatus> status(std::uint64_t cw_id) const;
  // Writes the status of every incomplete CW with a slot (oldest first) into out; returns the
  // count written (at most out.size()).
  std::size_t incomplete(std::span<CwStatus> out) const;
  // Id of the oldest unreleased CW.
  std::uint64_t oldest_cw() const;
  // Counters.
  const DecoderStats& stats() const;

 private:
  std::unique_ptr<DecoderImpl> impl_;
};

}  // namespace ncgw::coding
