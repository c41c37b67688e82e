// coding-bench: GF(2^8) coding throughput, side by side in one run.
//   encode:        CwEncoder (ISA-L), n sources of 1400 bytes, 25% repairs accumulated incrementally
//   decode:        Decoder (ISA-L), 10% of the sources lost, repairs until rank n, in-order release
//   scalar_encode: the same encode on the scalar reference backend
//   isal_raw:      ec_encode_data on the same shape (tables built once)
// All figures are GB/s of source data. The last line is the summary the issue asks for.
#include <benchmark/benchmark.h>
#include <isa-l/erasure_code.h>

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "coding/aligned_buffer.h"
#include "coding/cw_encoder.h"
#include "coding/decoder.h"
#include "transports/common/rng.h"

namespace {

using namespace ncgw::coding;

constexpr std::size_t kPacket = 1400;

unsigned repairs_for(unsigned n) { return (n + 3) / 4; }                       // 25%
unsigned lost_for(unsigned n) { return static_cast<unsigned>(std::lround(0.1 * n)); }  // 10%

std::vector<std::vector<std::uint8_t>> packets(unsigned n) {
  ncgw::transport::Rng rng(n);
  std::vector<std::vector<std::uint8_t>> p(n, std::vector<std::uint8_t>(kPacket));
  for (auto& v : p)
    for (auto& b : v) b = static_cast<std::uint8_t>(rng.next());
  return p;
}

// Adds n sources and fetches k repairs per iteration. zero_copy: the packet is already in the
// encoder's source buffer (as when read() from the TUN device goes straight there), so only
// commit_source() runs; otherwise add_source() copies it in from a separate buffer.
void encode(benchmark::State& state, Backend backend, bool zero_copy = false) {
  const auto n = static_cast<unsigned>(state.range(0));
  const unsigned k = repairs_for(n);
  const auto p = packets(n);
  CwEncoderLimits lim;
  lim.max_n = n;
  lim.max_accumulated = k;
  // CODING_BENCH_MAX_PACKET=1500 sizes the slots for a 1500-byte MTU instead of jumbo frames.
  if (const char* mp = std::getenv("CODING_BENCH_MAX_PACKET")) lim.max_packet = std::strtoul(mp, nullptr, 10);
  CwEncoder enc(lim, backend);
  std::uint64_t id = 0;
  for (auto _ : state) {
    enc.open(id, id * n, n, k, 7);
    ++id;
    for (unsigned i = 0; i < n; ++i) {
      if (zero_copy) {
        benchmark::DoNotOptimize(enc.next_source_buffer().data());
        benchmark::DoNotOptimize(enc.commit_source(kPacket).payload.data());
      } else {
        benchmark::DoNotOptimize(enc.add_source(p[i]).payload.data());
      }
    }
    for (unsigned r = 0; r < k; ++r) benchmark::DoNotOptimize(enc.repair(r).payload.data());
  }
  state.counters["gbs"] = benchmark::Counter(static_cast<double>(state.iterations()) * n * kPacket / 1e9,
                                             benchmark::Counter::kIsRate);
}

void BM_Encode(benchmark::State& s) { encode(s, Backend::kIsal); }
void BM_ScalarEncode(benchmark::State& s) { encode(s, Backend::kScalar); }
void BM_EncodeZeroCopy(benchmark::State& s) { encode(s, Backend::kIsal, true); }

// Feeds one CW (sources minus the lost ones, then repairs until complete) and releases it.
void BM_Decode(benchmark::State& state) {
  const auto n = static_cast<unsigned>(state.range(0));
  const unsigned k = repairs_for(n), lost = lost_for(n);
  const auto p = packets(n);
  CwEncoderLimits lim;
  lim.max_n = n;
  lim.max_accumulated = k;
  CwEncoder enc(lim, Backend::kIsal);
  enc.open(0, 0, n, k, 7);
  struct Msg { CodingHeader h; std::vector<std::uint8_t> payload; };
  std::vector<Msg> msgs;
  for (unsigned i = 0; i < n; ++i) {
    const Combination c = enc.add_source(p[i]);
    if (i % (n / std::max(lost, 1U)) != 0 || i / (n / std::max(lost, 1U)) >= lost)  // spread losses
      msgs.push_back({c.header, {c.payload.begin(), c.payload.end()}});
  }
  for (unsigned r = 0; r < k; ++r) {
    const Combination c = enc.repair(r);
    msgs.push_back({c.header, {c.payload.begin(), c.payload.end()}});
  }
  DecoderConfig dc;
  dc.max_open = 4;
  dc.max_n = n;
  Decoder dec(dc);
  std::uint64_t id = 0, released = 0;
  for (auto _ : state) {
    for (Msg& m : msgs) {
      m.h.cw_id = id;
      m.h.base = id * n;
      if (dec.oldest_cw() > id) break;  // decoded and released: remaining repairs not needed
      dec.feed(m.h, m.payload);
      for (auto f = dec.front(); !f.empty(); f = dec.front()) {
        benchmark::DoNotOptimize(f.data());
        dec.drop_front();
        ++released;
      }
    }
    ++id;
  }
  if (released != id * n) state.SkipWithError("decode did not release every source");
  state.counters["gbs"] = benchmark::Counter(static_cast<double>(state.iterations()) * n * kPacket / 1e9,
                                             benchmark::Counter::kIsRate);
}

// ec_encode_data over the same shape, tables prepared once.
void BM_IsalRaw(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  const int k = static_cast<int>(repairs_for(static_cast<unsigned>(n)));
  ncgw::transport::Rng rng(3);
  std::vector<unsigned char> coefs(static_cast<std::size_t>(n * k)), tbls(static_cast<std::size_t>(32 * n * k));
  for (auto& c : coefs) c = static_cast<unsigned char>(rng.next());
  ec_init_tables(n, k, coefs.data(), tbls.data());
  AlignedBuffer data(static_cast<std::size_t>(n) * kPacket * 2), coding(static_cast<std::size_t>(k) * kPacket * 2);
  std::vector<unsigned char*> src(static_cast<std::size_t>(n)), dst(static_cast<std::size_t>(k));
  for (int i = 0; i < n; ++i) src[static_cast<std::size_t>(i)] = data.data() + static_cast<std::size_t>(i) * 1408;
  for (int i = 0; i < k; ++i) dst[static_cast<std::size_t>(i)] = coding.data() + static_cast<std::size_t>(i) * 1408;
  for (auto& b : std::span(data.data(), data.size())) b = static_cast<std::uint8_t>(rng.next());
  for (auto _ : state) {
    ec_encode_data(static_cast<int>(kPacket), n, k, tbls.data(), src.data(), dst.data());
    benchmark::ClobberMemory();
  }
  state.counters["gbs"] = benchmark::Counter(static_cast<double>(state.iterations()) * n * kPacket / 1e9,
                                             benchmark::Counter::kIsRate);
}

BENCHMARK(BM_Encode)->Arg(8)->Arg(16)->Arg(32)->Arg(64);
BENCHMARK(BM_EncodeZeroCopy)->Arg(8)->Arg(16)->Arg(32)->Arg(64);
BENCHMARK(BM_Decode)->Arg(8)->Arg(16)->Arg(32)->Arg(64);
BENCHMARK(BM_ScalarEncode)->Arg(8)->Arg(16)->Arg(32)->Arg(64);
BENCHMARK(BM_IsalRaw)->Arg(8)->Arg(16)->Arg(32)->Arg(64);

// Console output plus a record of each run's GB/s by name.
class Recorder : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      auto it = r.counters.find("gbs");
      if (it != r.counters.end() && !r.error_occurred) gbs[r.benchmark_name()] = it->second.value;
    }
  }
  std::map<std::string, double> gbs;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  Recorder rec;
  benchmark::RunSpecifiedBenchmarks(&rec);
  auto get = [&](const char* name) {
    auto it = rec.gbs.find(name);
    return it == rec.gbs.end() ? 0.0 : it->second;
  };
  std::printf("ratios n16: encode/isal_raw %.2f\n", get("BM_Encode/16") / std::max(get("BM_IsalRaw/16"), 1e-12));
  std::printf("encode_n16_gbs=%.2f decode_n16_gbs=%.2f scalar_encode_n16_gbs=%.3f isal_raw_n16_gbs=%.2f\n",
              get("BM_Encode/16"), get("BM_Decode/16"), get("BM_ScalarEncode/16"), get("BM_IsalRaw/16"));
  benchmark::Shutdown();
  return 0;
}
