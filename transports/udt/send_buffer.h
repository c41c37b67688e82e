// The sender's buffer: a preallocated ring of packet-sized blocks, oldest unacknowledged first.
// Block i holds sequence number SndLastDataAck + i once sent (CSndBuffer in the library).
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace ncgw::udt {

class SendBuffer {
 public:
  // Per-block metadata.
  struct Block {
    std::uint32_t msg_word = 0;  // boundary | in-order | message number
    std::uint16_t len = 0;
    std::int32_t ttl_ms = -1;    // -1: never expires
    std::int64_t origin_us = 0;  // when the message was queued
  };

  // Ring of `capacity` blocks of at most `max_payload` bytes each.
  SendBuffer(std::uint32_t capacity, std::uint32_t max_payload);
  // The negotiated payload size per packet (<= max_payload).
  void set_payload_size(std::uint32_t p) { payload_ = p; }
  std::uint32_t payload_size() const { return payload_; }
  // Queues stream bytes as one "message" of as many packets as fit; returns bytes accepted.
  std::size_t add_stream(std::span<const std::uint8_t> data, std::int64_t now_us);
  // Queues one message (all or nothing); false if it does not fit now.
  bool add_message(std::span<const std::uint8_t> data, int ttl_ms, bool in_order, std::int64_t now_us);
  // Blocks held (unacknowledged plus unsent).
  std::uint32_t size() const { return count_; }
  // Free blocks.
  std::uint32_t free_blocks() const { return capacity_ - count_; }
  std::uint32_t capacity() const { return capacity_; }
  // Offset of the first block not yet sent.
  std::uint32_t unsent_offset() const { return sent_; }
  // True if some block has never been sent.
  bool has_unsent() const { return sent_ < count_; }
  // Metadata of the block at offset `off` from the oldest.
  const Block& block(std::uint32_t off) const { return meta_[index(off)]; }
  // Payload of the block at offset `off`.
  std::span<const std::uint8_t> data(std::uint32_t off) const;
  // Marks the first unsent block as sent.
  void mark_sent() { ++sent_; }
  // Treats every block before `off` as sent (message dropped before it went out).
  void skip_unsent_to(std::uint32_t off) { if (off > sent_) sent_ = off < count_ ? off : count_; }
  // Releases the `n` oldest blocks (acknowledged).
  void ack(std::uint32_t n);
  // Offsets of the first and last block of the message containing block `off`.
  std::pair<std::uint32_t, std::uint32_t> message_extent(std::uint32_t off) const;
  // Blocks ever queued / ever acknowledged: a block queued as the n-th is acknowledged once
  // acked_total() >= n (parallel channels move a flow only after that).
  std::uint64_t queued_total() const { return queued_total_; }
  std::uint64_t acked_total() const { return acked_total_; }

 private:
  std::uint32_t index(std::uint32_t off) const { return (head_ + off) % capacity_; }
  std::uint32_t append(std::span<const std::uint8_t> bytes, std::uint32_t msg_word, int ttl, std::int64_t now);

  std::uint32_t capacity_;
  std::uint32_t max_payload_;
  std::uint32_t payload_;
  std::vector<Block> meta_;
  // Payload ring, left uninitialised (see Receiver): pages are touched only as it is used.
  std::unique_ptr<std::uint8_t[]> bytes_;
  std::uint32_t head_ = 0;   // ring index of offset 0
  std::uint32_t count_ = 0;  // blocks held
  std::uint32_t sent_ = 0;   // offset of the first unsent block
  std::int32_t next_msgno_ = 1;
  std::uint64_t queued_total_ = 0, acked_total_ = 0;
};

}  // namespace ncgw::udt
