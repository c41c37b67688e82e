// The coefficient generator (docs/coding-wire.md, "Coefficients"): splitmix64 as a byte stream.
#include "coding/coefficients.h"

#include "transports/common/rng.h"

namespace ncgw::coding {
namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;

// The splitmix64 output mixing function applied to a state value.
constexpr std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace

void coefficient_stream(std::uint32_t seed, std::span<std::uint8_t> out) {
  std::uint64_t state = seed;
  std::size_t i = 0;
  while (i < out.size()) {
    std::uint64_t word = transport::splitmix64(state);
    for (int b = 0; b < 8 && i < out.size(); ++b, ++i, word >>= 8) out[i] = static_cast<std::uint8_t>(word);
  }
}

std::uint8_t coefficient_at(std::uint32_t seed, std::size_t i) {
  const std::uint64_t word = mix(std::uint64_t{seed} + (i / 8 + 1) * kGolden);
  return static_cast<std::uint8_t>(word >> (8 * (i % 8)));
}

std::uint32_t repair_seed(std::uint64_t salt, std::uint64_t cw_id, std::uint32_t repair_no) {
  std::uint64_t state = salt ^ mix(cw_id * 0xD1B54A32D192ED03ULL + repair_no);
  return static_cast<std::uint32_t>(transport::splitmix64(state) >> 32);
}

}  // namespace ncgw::coding
