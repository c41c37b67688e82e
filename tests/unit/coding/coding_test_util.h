// Helpers shared by the coding tests: random packets and a datagram path encoder -> decoder.
#pragma once
#include <cstdint>
#include <vector>

#include "coding/cw_encoder.h"
#include "coding/decoder.h"
#include "coding/header.h"
#include "transports/common/rng.h"

namespace ncgw::coding::test {

// A random packet of 1..max_len bytes (lengths biased to cover short, long and the extremes).
inline std::vector<std::uint8_t> random_packet(transport::Rng& rng, std::size_t max_len = kMaxPacket) {
  std::size_t len;
  switch (rng.below(4)) {
    case 0: len = 1 + rng.below(64); break;
    case 1: len = max_len - rng.below(std::min<std::size_t>(max_len, 8)); break;
    default: len = 1 + rng.below(max_len); break;
  }
  std::vector<std::uint8_t> p(len);
  for (auto& b : p) b = static_cast<std::uint8_t>(rng.next());
  return p;
}

// Serialises a combination into a datagram (coding header + payload).
inline std::vector<std::uint8_t> datagram(const Combination& c) {
  std::vector<std::uint8_t> d(header_size(c.header) + c.payload.size());
  const std::size_t n = write_header(c.header, d);
  std::copy(c.payload.begin(), c.payload.end(), d.begin() + static_cast<std::ptrdiff_t>(n));
  return d;
}

// Pops every released source from `dec` into `out`, checking source numbers are consecutive.
inline void drain(Decoder& dec, std::vector<std::vector<std::uint8_t>>& out, std::uint64_t first = 0) {
  std::vector<std::uint8_t> buf(kMaxPacket);
  while (auto r = dec.pop(buf)) {
    EXPECT_EQ(r->source_number, first + out.size());
    out.emplace_back(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(r->length));
  }
}

}  // namespace ncgw::coding::test
