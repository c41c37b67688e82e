#include "transports/udt/send_buffer.h"

#include <cstring>

#include "transports/udt/packet.h"
#include "transports/udt/seq.h"

namespace ncgw::udt {

SendBuffer::SendBuffer(std::uint32_t capacity, std::uint32_t max_payload)
    : capacity_(capacity), max_payload_(max_payload), payload_(max_payload), meta_(capacity),
      bytes_(std::make_unique_for_overwrite<std::uint8_t[]>(static_cast<std::size_t>(capacity) * max_payload)) {}

std::span<const std::uint8_t> SendBuffer::data(std::uint32_t off) const {
  const std::uint32_t i = index(off);
  return {bytes_.get() + static_cast<std::size_t>(i) * max_payload_, meta_[i].len};
}

std::uint32_t SendBuffer::append(std::span<const std::uint8_t> bytes, std::uint32_t msg_word, int ttl,
                                 std::int64_t now) {
  const std::uint32_t i = index(count_);
  std::memcpy(bytes_.get() + static_cast<std::size_t>(i) * max_payload_, bytes.data(), bytes.size());
  meta_[i] = Block{msg_word, static_cast<std::uint16_t>(bytes.size()), ttl, now};
  ++queued_total_;
  return ++count_;
}

std::size_t SendBuffer::add_stream(std::span<const std::uint8_t> data, std::int64_t now_us) {
  const std::size_t room = static_cast<std::size_t>(free_blocks()) * payload_;
  const std::size_t n = data.size() < room ? data.size() : room;
  if (n == 0) return 0;
  const std::size_t packets = (n + payload_ - 1) / payload_;
  for (std::size_t k = 0; k < packets; ++k) {
    const std::size_t from = k * payload_;
    const std::size_t len = (n - from) < payload_ ? (n - from) : payload_;
    append(data.subspan(from, len), make_msg_word(next_msgno_, k == 0, k + 1 == packets, false), -1, now_us);
  }
  next_msgno_ = seq::inc_msg(next_msgno_);
  return n;
}

bool SendBuffer::add_message(std::span<const std::uint8_t> data, int ttl_ms, bool in_order, std::int64_t now_us) {
  if (data.empty()) return true;
  const std::size_t packets = (data.size() + payload_ - 1) / payload_;
  if (packets > free_blocks()) return false;
  for (std::size_t k = 0; k < packets; ++k) {
    const std::size_t from = k * payload_;
    const std::size_t len = (data.size() - from) < payload_ ? (data.size() - from) : payload_;
    append(data.subspan(from, len), make_msg_word(next_msgno_, k == 0, k + 1 == packets, in_order), ttl_ms, now_us);
  }
  next_msgno_ = seq::inc_msg(next_msgno_);
  return true;
}

void SendBuffer::ack(std::uint32_t n) {
  if (n > count_) n = count_;
  acked_total_ += n;
  head_ = (head_ + n) % capacity_;
  count_ -= n;
  sent_ = sent_ > n ? sent_ - n : 0;
}

std::pair<std::uint32_t, std::uint32_t> SendBuffer::message_extent(std::uint32_t off) const {
  const std::int32_t m = msg_no(block(off).msg_word);
  std::uint32_t first = off;
  while (first > 0 && !msg_first(block(first).msg_word) && msg_no(block(first - 1).msg_word) == m) --first;
  std::uint32_t last = off;
  while (!msg_last(block(last).msg_word) && last + 1 < count_ && msg_no(block(last + 1).msg_word) == m) ++last;
  return {first, last};
}

}  // namespace ncgw::udt
