#include "transports/tcpnc/packet_queue.h"

#include <algorithm>

namespace ncgw::tcpnc {

PacketQueue::PacketQueue(std::size_t capacity, std::size_t slot_bytes)
    : slot_(slot_bytes), bytes_(capacity * slot_bytes), lengths_(capacity), arrivals_(capacity), tags_(capacity) {}

bool PacketQueue::push(std::span<const std::uint8_t> packet, transport::TimePoint now, std::uint32_t tag) {
  if (size_ == lengths_.size() || packet.size() > slot_) return false;
  const std::size_t i = (head_ + size_) % lengths_.size();
  std::copy(packet.begin(), packet.end(), bytes_.begin() + i * slot_);
  lengths_[i] = static_cast<std::uint32_t>(packet.size());
  arrivals_[i] = now;
  tags_[i] = tag;
  ++size_;
  return true;
}

std::span<const std::uint8_t> PacketQueue::front() const {
  return {bytes_.data() + head_ * slot_, lengths_[head_]};
}

void PacketQueue::pop() {
  if (size_ == 0) return;
  head_ = (head_ + 1) % lengths_.size();
  --size_;
}

}  // namespace ncgw::tcpnc
