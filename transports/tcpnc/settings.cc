#include "transports/tcpnc/settings.h"

#include <algorithm>
#include <cmath>

#include "transports/tcpnc/wire.h"

namespace ncgw::tcpnc {

std::uint32_t effective_cwnd_cap(const TcpncCoreSettings& s) {
  return auto_sized(s) ? kAutoCwndCap : s.cwnd_max_packets;
}

std::size_t max_ip_packet(const TcpncCoreSettings& s, std::size_t max_symbol) {
  const std::size_t prefix = s.header_compression ? kHcMaxPrefix : 0;
  return max_symbol > prefix ? max_symbol - prefix : 0;
}

std::size_t max_tunnel_packet(const TcpncCoreSettings& s, std::size_t max_symbol) {
  if (!s.header_compression || max_symbol <= kHcBulkFormHead) return max_ip_packet(s, max_symbol);
  return max_symbol - kHcBulkFormHead + kHcBulkTcpHeader;
}

std::uint16_t clamped_mss(std::size_t source_limit) {
  return static_cast<std::uint16_t>(source_limit > kHcBulkFormHead ? source_limit - kHcBulkFormHead : 0);
}

std::uint32_t effective_link_buffer(const TcpncCoreSettings& s) {
  if (s.link_buffer_packets != 0) return s.link_buffer_packets;
  if (auto_sized(s)) return kAutoQueueCapacity;
  return static_cast<std::uint32_t>(std::ceil(s.r_max * s.cwnd_max_packets));
}

std::uint32_t effective_sending_buffer(const TcpncCoreSettings& s) {
  if (s.sending_buffer_packets != 0) return s.sending_buffer_packets;
  return effective_cwnd_cap(s) + effective_link_buffer(s);
}

std::uint32_t queue_capacity(const TcpncCoreSettings& s) {
  if (auto_sized(s) && s.sending_buffer_packets == 0) return kAutoQueueCapacity;
  return effective_sending_buffer(s);
}

}  // namespace ncgw::tcpnc

#include "transports/tcpnc/wire.h"

namespace ncgw::tcpnc {
// Every open CW must fit in one ACK's CW list (else the sender would guess its missing DoF).
static_assert(kMaxAckCws >= 255, "an ACK must list every CW coding_windows() allows open");
std::size_t coding_windows(const TcpncCoreSettings& s) {
  const std::size_t budget = std::max<std::size_t>(kCodingSymbolBudget, 2 * std::size_t{s.cwnd_max_packets});
  const std::size_t by_memory = std::max<std::size_t>(4, budget / std::max<std::uint32_t>(1, s.n_max));
  if (auto_sized(s)) return std::min(kAutoCodingWindows, by_memory);
  const std::size_t w = s.cwnd_max_packets / std::max<std::uint32_t>(1, s.n_min) + 3;
  return std::min(std::clamp<std::size_t>(w, 4, 255), by_memory);
}
}  // namespace ncgw::tcpnc
