// The receiver's buffer and loss state: a preallocated ring indexed by sequence number. Holes between
// the contiguous point and the largest sequence received are the receiver loss list (CRcvBuffer +
// CRcvLossList in the library); messages or stream bytes are read out in sequence order.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "transports/udt/packet.h"

namespace ncgw::udt {

class Receiver {
 public:
  // What became of an arriving data packet.
  enum class Arrival : std::uint8_t { stored, duplicate, out_of_window };
  using Range = std::array<std::int32_t, 2>;

  // A ring of `packets` slots (the advertised buffer) of at most `max_payload` bytes each.
  Receiver(std::uint32_t packets, std::uint32_t max_payload);
  // Starts receiving at the peer's initial sequence number.
  void start(std::int32_t isn);
  // Stores a data packet; sets `gap` to the newly detected lost range, if any.
  Arrival on_data(std::int32_t seq, std::uint32_t msg_word, std::span<const std::uint8_t> payload,
                  std::optional<Range>& gap);
  // Applies a message drop request: the range stops counting as lost, the message is skipped.
  void drop(const DropRequest& d);
  // The ACK number: the first sequence number not yet received (or dropped).
  std::int32_t ack_point() const { return contig_; }
  // The largest sequence number received.
  std::int32_t largest() const { return curr_; }
  // Free slots to advertise (at least 2, as the library does).
  std::int32_t avail_buffer() const;
  // Number of sequence numbers currently missing.
  std::uint32_t holes() const { return holes_; }
  // Writes up to out.size() lost ranges in [ack_point, largest]; returns how many.
  std::size_t loss_ranges(std::span<Range> out) const;
  // Copies the next complete message into `out` (truncated to its size); returns the message size.
  std::optional<std::size_t> read_message(std::span<std::uint8_t> out);
  // Copies stream bytes into `out`; returns the byte count.
  std::size_t read_stream(std::span<std::uint8_t> out);
  // True if a message or stream byte is ready to read.
  bool readable() const { return read_ != contig_; }

 private:
  enum class Slot : std::uint8_t { empty, present, dropped };
  std::uint32_t idx(std::int32_t s) const { return static_cast<std::uint32_t>(s) & mask_; }
  void advance_contig();
  void release(std::int32_t s) { state_[idx(s)] = Slot::empty; }
  std::uint8_t* slot_data(std::int32_t s) { return bytes_.get() + static_cast<std::size_t>(idx(s)) * max_payload_; }

  std::uint32_t size_;         // advertised buffer (packets)
  std::uint32_t mask_;         // ring mask (power of two >= size_)
  std::uint32_t max_payload_;
  std::vector<Slot> state_;
  std::vector<std::uint32_t> msg_;
  std::vector<std::uint16_t> len_;
  // Payload ring, left uninitialised: pages are touched only as the ring is used, so a large
  // buffer costs neither a memset at set-up nor memory it never holds.
  std::unique_ptr<std::uint8_t[]> bytes_;
  std::int32_t read_ = 0;      // next sequence number to read
  std::int32_t contig_ = 0;    // first sequence number not received (ack point)
  std::int32_t curr_ = 0;      // largest received (peer ISN - 1 at start)
  std::uint32_t holes_ = 0;    // missing sequence numbers in [contig_, curr_]
  std::uint32_t read_off_ = 0; // bytes of slot read_ already consumed (stream mode)
};

}  // namespace ncgw::udt
