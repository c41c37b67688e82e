#include "transports/common/inet_checksum.h"

namespace ncgw::transport {

std::uint32_t checksum_add(std::uint32_t sum, std::span<const std::uint8_t> bytes) {
  std::size_t i = 0;
  for (; i + 1 < bytes.size(); i += 2) {
    sum += (std::uint32_t{bytes[i]} << 8) | bytes[i + 1];
    if (sum & 0x80000000u) sum = (sum & 0xFFFF) + (sum >> 16);
  }
  if (i < bytes.size()) sum += std::uint32_t{bytes[i]} << 8;
  return sum;
}

std::uint16_t checksum_finish(std::uint32_t sum) {
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<std::uint16_t>(~sum);
}

}  // namespace ncgw::transport
