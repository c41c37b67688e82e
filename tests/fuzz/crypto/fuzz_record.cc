// Fuzzes the record layer of an established session. Input byte 0 chooses the mode: raw (the rest
// is a datagram to open) or sealed (the next 8 bytes are a counter, the rest a payload the harness
// seals under the real key with that counter, then opens twice). Checks: garbage never opens; a
// sealed record opens at most once and gives back its payload.
#include <cstring>
#include <vector>

#include "fuzz_common.h"
#include "transports/common/byte_order.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ncgw::crypto;
  using ncgw::transport::time_from_ns;
  if (size < 1) return 0;
  static Session a(fuzz::fixed_settings(1, 2)), b(fuzz::fixed_settings(2, 1));
  static bool up = false;
  if (!up) {
    fuzz::pump(a, b, time_from_ns(1));
    up = a.can_send(time_from_ns(1));
    if (!up) __builtin_trap();
  }
  const auto now = time_from_ns(2);
  std::vector<std::uint8_t> plain(size + 64);
  if ((data[0] & 1) == 0) {
    const std::vector<std::uint8_t> d(data + 1, data + size);
    if (auto p = b.receive(d, now, plain); p && !p->empty()) __builtin_trap();
    return 0;
  }
  if (size < 9) return 0;
  const std::size_t n = size - 9;
  std::vector<std::uint8_t> rec(n + wire::kRecordOverhead);
  std::memcpy(rec.data() + wire::kDataHeaderSize, data + 9, n);
  rec.resize(a.seal(rec, n, now));
  // Overwrite the counter: the AEAD then authenticates a header it was not sealed with.
  std::memcpy(rec.data() + 8, data + 1, 8);
  const int opened = (b.receive(rec, now, plain) ? 1 : 0) + (b.receive(rec, now, plain) ? 1 : 0);
  if (opened > 1) __builtin_trap();
  return 0;
}
