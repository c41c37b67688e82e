// Input format shared by the decoder fuzz target and its seed generator: a sequence of records
// [u16 big-endian length L | L bytes]; L > 0 is one datagram for Decoder::feed_datagram, L == 0
// means "pop every released source now".
#pragma once
#include <cstdint>
#include <vector>

namespace ncgw::coding::fuzz {

// Decoder configuration the fuzz target uses (small, so each input runs fast).
inline constexpr std::size_t kMaxOpen = 4;
inline constexpr std::size_t kMaxPacket = 1500;

// Appends one record.
inline void append_record(std::vector<std::uint8_t>& out, const std::vector<std::uint8_t>& datagram) {
  out.push_back(static_cast<std::uint8_t>(datagram.size() >> 8));
  out.push_back(static_cast<std::uint8_t>(datagram.size()));
  out.insert(out.end(), datagram.begin(), datagram.end());
}

}  // namespace ncgw::coding::fuzz
