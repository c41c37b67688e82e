// Fuzzes the handshake messages a gateway accepts from its peer's address. Input byte 0 chooses
// whether the harness writes a valid mac1 over the rest (so the fuzzer reaches the Noise parsing
// behind the mac1 check); the rest is the datagram. Checks: no crash, no key pair from garbage.
#include <vector>

#include "crypto/cookie.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ncgw::crypto;
  if (size < 1) return 0;
  static Session responder(fuzz::fixed_settings(2, 1));
  static Cookies stamper(x25519_public(fuzz::fixed_private(1)), x25519_public(fuzz::fixed_private(2)), Key{}, {});
  static std::int64_t t = 0;
  const auto now = ncgw::transport::time_from_ns(t += 1'000'000);
  std::vector<std::uint8_t> msg(data + 1, data + size);
  if ((data[0] & 1) && msg.size() >= 32) stamper.stamp(msg, now);
  std::vector<std::uint8_t> plain(msg.size() + 16);
  const auto before = responder.counters().handshakes_answered;
  if (responder.receive(msg, now, plain) && msg.size() > 0 && msg[0] != wire::kTypeData) __builtin_trap();
  // Only a message made with initiator key 1 can be answered; the fuzzer does not have it.
  if (responder.counters().handshakes_answered != before) __builtin_trap();
  std::array<std::uint8_t, 2048> out{};
  while (responder.poll_control(out, now)) {
  }
  return 0;
}
