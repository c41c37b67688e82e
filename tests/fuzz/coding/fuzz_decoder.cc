// libFuzzer entry point: arbitrary datagrams into a Decoder, with invariants checked after each:
// seen() never decreases, releases stay in order and never pass seen(), lengths stay bounded.
#include <cstdint>
#include <array>
#include <cstdlib>
#include <vector>

#include "coding/decoder.h"
#include "fuzz_stream.h"

namespace {

using namespace ncgw::coding;

// Aborts (a finding) when an invariant fails.
void check(bool ok) {
  if (!ok) std::abort();
}

// Pops everything released, checking order and bounds.
void drain(Decoder& dec, std::vector<std::uint8_t>& buf, std::uint64_t& expect_next) {
  while (auto r = dec.pop(buf)) {
    check(r->length >= 1 && r->length <= fuzz::kMaxPacket);
    check(r->source_number >= expect_next);  // corrupt sources may be skipped, never reordered
    expect_next = r->source_number + 1;
  }
  check(dec.next_release() <= dec.seen());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  DecoderConfig cfg;
  cfg.max_open = fuzz::kMaxOpen;
  cfg.max_packet = fuzz::kMaxPacket;
  Decoder dec(cfg);
  std::vector<std::uint8_t> buf(fuzz::kMaxPacket);
  std::uint64_t seen = dec.seen(), next = 0;
  std::size_t pos = 0;
  while (pos + 2 <= size) {
    const std::size_t len = static_cast<std::size_t>(data[pos]) << 8 | data[pos + 1];
    pos += 2;
    if (len == 0) {
      drain(dec, buf, next);
      continue;
    }
    const std::size_t take = len < size - pos ? len : size - pos;
    dec.feed_datagram({data + pos, take});
    pos += take;
    check(dec.seen() >= seen);
    seen = dec.seen();
    std::array<CwStatus, fuzz::kMaxOpen> inc{};
    const std::size_t count = dec.incomplete(inc);
    for (std::size_t i = 0; i < count; ++i) check(inc[i].rank <= kMaxWindow && !inc[i].complete);
  }
  drain(dec, buf, next);
  return 0;
}
