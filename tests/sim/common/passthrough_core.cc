#include "tests/sim/common/passthrough_core.h"

#include <algorithm>

namespace ncgw::sim {

void PassthroughCore::on_datagram(std::span<const std::uint8_t> bytes, transport::TimePoint now) {
  arrivals_.push_back(now);
  to_deliver_.emplace_back(bytes.begin(), bytes.end());
}

transport::SendResult PassthroughCore::send(std::span<const std::uint8_t> ip_packet, transport::TimePoint) {
  if (ip_packet.size() > max_payload()) return transport::SendResult::too_big;
  if (to_send_.size() >= limit_) { ++refused_; return transport::SendResult::buffer_full; }
  to_send_.emplace_back(ip_packet.begin(), ip_packet.end());
  return transport::SendResult::accepted;
}

std::optional<std::size_t> PassthroughCore::poll_transmit(std::span<std::uint8_t> out, transport::TimePoint) {
  if (to_send_.empty()) return std::nullopt;
  const auto& p = to_send_.front();
  const std::size_t n = std::min(p.size(), out.size());
  std::copy_n(p.begin(), n, out.begin());
  to_send_.pop_front();
  return n;
}

std::optional<std::size_t> PassthroughCore::poll_deliver(std::span<std::uint8_t> out) {
  if (to_deliver_.empty()) return std::nullopt;
  const auto& p = to_deliver_.front();
  const std::size_t n = std::min(p.size(), out.size());
  std::copy_n(p.begin(), n, out.begin());
  to_deliver_.pop_front();
  return n;
}

std::vector<transport::StatEntry> PassthroughCore::stats() const {
  return {{"refused", static_cast<double>(refused_)}, {"arrivals", static_cast<double>(arrivals_.size())}};
}

}  // namespace ncgw::sim
