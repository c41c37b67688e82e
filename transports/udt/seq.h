// UDT sequence, ACK and message number arithmetic (31-bit sequence space with a 0x3FFFFFFF
// comparison threshold), mirroring the library's CSeqNo / CAckNo / CMsgNo (common.h).
#pragma once
#include <cstdint>
#include <cstdlib>

#include "transports/udt/wire.h"

namespace ncgw::udt::seq {

// Signed comparison: < 0 if a precedes b, 0 if equal, > 0 if a follows b.
constexpr std::int32_t cmp(std::int32_t a, std::int32_t b) {
  const std::int64_t d = std::int64_t{a} - b;
  return (d < wire::kSeqNoThreshold && d > -wire::kSeqNoThreshold) ? static_cast<std::int32_t>(d)
                                                                    : static_cast<std::int32_t>(-d);
}
// Number of sequence numbers in [a, b] inclusive (a at or before b).
constexpr std::int32_t len(std::int32_t a, std::int32_t b) {
  return (a <= b) ? (b - a + 1) : static_cast<std::int32_t>(std::int64_t{b} - a + wire::kMaxSeqNo + 2);
}
// Signed distance from a to b (b - a in the wrapped space).
constexpr std::int32_t off(std::int32_t a, std::int32_t b) {
  const std::int64_t d = std::int64_t{b} - a;
  if (d < wire::kSeqNoThreshold && d > -wire::kSeqNoThreshold) return static_cast<std::int32_t>(d);
  if (a < b) return static_cast<std::int32_t>(d - wire::kMaxSeqNo - 1);
  return static_cast<std::int32_t>(d + wire::kMaxSeqNo + 1);
}
// The next sequence number.
constexpr std::int32_t inc(std::int32_t s) { return s == wire::kMaxSeqNo ? 0 : s + 1; }
// The previous sequence number.
constexpr std::int32_t dec(std::int32_t s) { return s == 0 ? wire::kMaxSeqNo : s - 1; }
// s advanced by n (n >= 0).
constexpr std::int32_t add(std::int32_t s, std::int32_t n) {
  return (wire::kMaxSeqNo - s >= n) ? s + n : static_cast<std::int32_t>(std::int64_t{s} - wire::kMaxSeqNo + n - 1);
}
// The later of two sequence numbers.
constexpr std::int32_t max(std::int32_t a, std::int32_t b) { return cmp(a, b) >= 0 ? a : b; }
// The next ACK sequence number (1..0x7FFFFFFF, then 0 as the library does).
constexpr std::int32_t inc_ack(std::int32_t a) { return a == wire::kMaxAckSeqNo ? 0 : a + 1; }
// The next message number (1..kMaxMsgNo-1).
constexpr std::int32_t inc_msg(std::int32_t m) { return (m + 1 >= wire::kMaxMsgNo) ? 1 : m + 1; }

}  // namespace ncgw::udt::seq
