#include "transports/common/core.h"

namespace ncgw::transport {

const char* to_string(SendResult r) {
  switch (r) {
    case SendResult::accepted: return "accepted";
    case SendResult::buffer_full: return "buffer_full";
    case SendResult::too_big: return "too_big";
    case SendResult::not_connected: return "not_connected";
  }
  return "unknown";
}

void Core::on_datagrams(std::span<const Arrival> batch) {
  for (const Arrival& d : batch) on_datagram(d.bytes, d.at);
}

std::size_t Core::poll_transmits(std::span<const std::span<std::uint8_t>> slots, std::span<std::size_t> lengths,
                                 TimePoint now) {
  std::size_t n = 0;
  for (; n < slots.size(); ++n) {
    const auto length = poll_transmit(slots[n], now);
    if (!length) break;
    lengths[n] = *length;
  }
  return n;
}

}  // namespace ncgw::transport
