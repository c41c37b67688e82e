// Fuzzes what a peer (or anyone) can send to the plain port: decode_datagram, then the core.
#include <array>
#include <cstdint>
#include <span>

#include "transports/plain/plain_core.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ncgw;
  const std::span<const std::uint8_t> input(data, size);
  const plain::Decoded d = plain::decode_datagram(input);
  if (d.error == plain::DecodeError::none && d.payload.size() + plain::kHeaderSize != size) __builtin_trap();
  static plain::PlainCore core(plain::PlainCoreSettings{});
  core.on_datagram(input, transport::time_from_ns(0));
  std::array<std::uint8_t, 9216> out{};
  while (core.poll_deliver(out)) {
  }
  return 0;
}
