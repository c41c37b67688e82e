// Writes seed inputs for fuzz_coding_decoder: real encoder streams (sources, seeded and explicit
// repairs, early closes, losses, duplicates, reordering) in the fuzz record format.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "coding/encoder.h"
#include "fuzz_stream.h"
#include "transports/common/rng.h"

namespace {

using namespace ncgw::coding;

std::vector<std::uint8_t> datagram(const Combination& c) {
  std::vector<std::uint8_t> d(header_size(c.header) + c.payload.size());
  const std::size_t n = write_header(c.header, d);
  std::copy(c.payload.begin(), c.payload.end(), d.begin() + static_cast<std::ptrdiff_t>(n));
  return d;
}

// One stream of `cws` CWs of at most `max_n` sources under loss `loss`, seeded by `seed`.
std::vector<std::uint8_t> stream(std::uint64_t seed, int cws, double loss, std::size_t max_len, unsigned max_n) {
  ncgw::transport::Rng rng(seed);
  EncoderConfig ec;
  ec.max_open = fuzz::kMaxOpen;
  ec.limits.max_packet = fuzz::kMaxPacket;
  ec.limits.max_n = max_n;
  ec.salt = seed;
  Encoder enc(ec);
  std::vector<std::uint8_t> out;
  std::vector<std::vector<std::uint8_t>> held;  // delayed datagrams (reordering)
  for (int c = 0; c < cws; ++c) {
    const unsigned n = 1 + static_cast<unsigned>(rng.below(max_n));
    CwEncoder* cw = enc.open(n, static_cast<unsigned>(rng.below(3)));
    if (cw == nullptr) { enc.release_oldest(); cw = enc.open(n, 1); }
    const unsigned stop = rng.bernoulli(0.3) ? 1 + static_cast<unsigned>(rng.below(n)) : n;
    for (unsigned i = 0; i < stop; ++i) {
      std::vector<std::uint8_t> p(1 + rng.below(max_len));
      for (auto& b : p) b = static_cast<std::uint8_t>(rng.next());
      const auto d = datagram(cw->add_source(p));
      if (rng.bernoulli(loss)) continue;
      if (rng.bernoulli(0.1)) held.push_back(d); else fuzz::append_record(out, d);
      if (rng.bernoulli(0.05)) fuzz::append_record(out, d);  // duplicate
    }
    if (!cw->closed()) cw->close();
    for (std::uint32_t r = 0; r < n + 2; ++r) {
      if (rng.bernoulli(0.2)) {
        std::vector<std::uint8_t> coefs(cw->count());
        for (auto& x : coefs) x = static_cast<std::uint8_t>(rng.next());
        fuzz::append_record(out, datagram(cw->explicit_combination(coefs)));
      } else if (!rng.bernoulli(loss)) {
        fuzz::append_record(out, datagram(cw->repair(r)));
      }
    }
    for (const auto& d : held) fuzz::append_record(out, d);
    held.clear();
    fuzz::append_record(out, {});  // pop
    if (c >= 2) enc.release_oldest();
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <corpus-dir>\n", argv[0]);
    return 2;
  }
  const struct { int cws; double loss; std::size_t max_len; unsigned max_n; } shapes[] = {
      {1, 0.0, 40, 8},  {2, 0.3, 100, 8}, {4, 0.5, 200, 8}, {6, 0.2, 64, 8},
      {3, 0.0, 1500, 8}, {8, 0.4, 30, 8},  {2, 0.1, 12, 255}, {3, 0.3, 8, 200}};  // the last two: wide CWs
  int i = 0;
  for (const auto& s : shapes) {
    const auto bytes = stream(100 + static_cast<std::uint64_t>(i), s.cws, s.loss, s.max_len, s.max_n);
    std::ofstream f(std::string(argv[1]) + "/seed_" + std::to_string(i++), std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  std::printf("wrote %d seeds\n", i);
  return 0;
}
