// Fuzzes the secure layer's batch receive (SecureCore::on_datagrams) over an established session
// of two secured plain cores. The input is a list of chunks [kind][length][bytes]: kind bit 0
// set makes the chunk a genuine record (the bytes, as an IP packet, sealed by the sender; bit 1
// also flips one of its bytes), clear makes it a raw datagram. Up to 80 chunks form one batch
// (longer than the data path's 64, so the layer splits it). Checks: exactly the intact genuine
// records are delivered, in order and byte for byte; nothing else reaches the inner core.
#include <array>
#include <cstring>
#include <memory>
#include <vector>

#include "crypto/secure_core.h"
#include "fuzz_common.h"
#include "transports/plain/plain_core.h"

namespace {

using namespace ncgw;

// A SecureCore over a plain core for 1472-byte datagrams, keys of side `self`.
std::unique_ptr<crypto::SecureCore> secured(std::uint8_t self, std::uint8_t other) {
  plain::PlainCoreSettings ps;
  ps.session_id = 7;
  ps.max_datagram = 1472 - crypto::wire::kRecordOverhead;
  return std::make_unique<crypto::SecureCore>(std::make_unique<plain::PlainCore>(ps),
                                              crypto::fuzz::fixed_settings(self, other), ps.max_datagram);
}

// Moves datagrams both ways until quiet and discards deliveries (the handshake and keep-alives).
void settle(crypto::SecureCore& a, crypto::SecureCore& b, transport::TimePoint now) {
  std::vector<std::uint8_t> buf(2048);
  for (int round = 0; round < 8; ++round) {
    while (auto n = a.poll_transmit(buf, now)) b.on_datagram({buf.data(), *n}, now);
    while (auto n = b.poll_transmit(buf, now)) a.on_datagram({buf.data(), *n}, now);
    while (a.poll_deliver(buf) || b.poll_deliver(buf)) {}
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static auto a = secured(1, 2), b = secured(2, 1);
  static bool up = false;
  const auto now = transport::time_from_ns(1);
  if (!up) {
    settle(*a, *b, now);
    up = a->session().can_send(now) && b->session().can_send(now);
    if (!up) __builtin_trap();
  }
  std::vector<std::vector<std::uint8_t>> datagrams, expected;
  std::vector<std::uint8_t> buf(2048);
  for (std::size_t at = 0; at + 3 <= size && datagrams.size() < 80;) {
    const std::uint8_t kind = data[at];
    const std::size_t len = std::min<std::size_t>((data[at + 1] << 8 | data[at + 2]) % 1500, size - at - 3);
    const std::uint8_t* bytes = data + at + 3;
    at += 3 + len;
    if ((kind & 1) == 0) {
      datagrams.emplace_back(bytes, bytes + len);
      continue;
    }
    std::vector<std::uint8_t> packet(bytes, bytes + len);
    packet.insert(packet.begin(), 0x45);
    if (a->send(packet, now) != transport::SendResult::accepted) continue;
    const auto n = a->poll_transmit(buf, now);
    if (!n) __builtin_trap();
    datagrams.emplace_back(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(*n));
    if (kind & 2) datagrams.back()[(kind >> 2) % *n] ^= 0x80;
    else expected.push_back(std::move(packet));
  }
  std::vector<transport::Arrival> batch;
  for (const auto& d : datagrams) batch.push_back({d, now});
  b->on_datagrams(batch);
  std::size_t got = 0;
  while (auto n = b->poll_deliver(buf)) {
    if (got == expected.size() || *n != expected[got].size() ||
        std::memcmp(buf.data(), expected[got].data(), *n) != 0) __builtin_trap();
    ++got;
  }
  if (got != expected.size()) __builtin_trap();
  return 0;
}
