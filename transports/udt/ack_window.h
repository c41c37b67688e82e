// The receiver's record of ACKs sent (CACKWindow(1024)): an ACK2 echoing an ACK sequence number
// yields one RTT sample and the ACK number the sender has now surely seen.
#pragma once
#include <array>
#include <cstdint>
#include <optional>

#include "transports/udt/wire.h"

namespace ncgw::udt {

class AckWindow {
 public:
  // What an ACK2 tells the receiver.
  struct Sample {
    std::int32_t rtt_us;
    std::int32_t ack;
  };
  // Records ACK `ack_seq` carrying ACK number `ack`, sent at `now_us`.
  void store(std::int32_t ack_seq, std::int32_t ack, std::int64_t now_us) {
    ring_[head_] = Entry{ack_seq, ack, now_us};
    head_ = (head_ + 1) % ring_.size();
    if (count_ < ring_.size()) ++count_;
  }
  // Matches an ACK2 for `ack_seq`; nullopt if unknown (too old or never sent).
  std::optional<Sample> acknowledge(std::int32_t ack_seq, std::int64_t now_us) const {
    for (std::size_t k = 1; k <= count_; ++k) {
      const Entry& e = ring_[(head_ + ring_.size() - k) % ring_.size()];
      if (e.ack_seq == ack_seq) {
        const std::int64_t rtt = now_us - e.sent_us;
        return Sample{static_cast<std::int32_t>(rtt > 0x7FFFFFFF ? 0x7FFFFFFF : rtt), e.ack};
      }
    }
    return std::nullopt;
  }

 private:
  struct Entry {
    std::int32_t ack_seq = -1;
    std::int32_t ack = 0;
    std::int64_t sent_us = 0;
  };
  std::array<Entry, wire::kAckWindowSize> ring_{};
  std::size_t head_ = 0;
  std::size_t count_ = 0;
};

}  // namespace ncgw::udt
