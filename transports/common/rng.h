// Seeded pseudo-random numbers for cores and simulators: a fixed, documented generator
// (xoshiro256** seeded through splitmix64) so every run replays bit for bit on any platform.
#pragma once
#include <cstdint>

namespace ncgw::transport {

// 128-bit unsigned integer (a GCC/Clang extension) for the multiply-shift in Rng::below.
__extension__ typedef unsigned __int128 Uint128;

// splitmix64 step: expands a 64-bit seed into well-mixed state words.
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// xoshiro256** (Blackman & Vigna); deterministic across compilers, unlike <random> distributions.
class Rng {
 public:
  // Seeds the four state words from `seed` via splitmix64.
  explicit constexpr Rng(std::uint64_t seed = 1) {
    std::uint64_t sm = seed;
    for (auto& w : s_) w = splitmix64(sm);
  }
  // Next 64 random bits.
  constexpr std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform double in [0, 1) from the top 53 bits.
  constexpr double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // True with probability p.
  constexpr bool bernoulli(double p) { return uniform() < p; }
  // Uniform integer in [0, bound) (bound > 0), Lemire's multiply-shift without rejection bias fix;
  // the bias is below 2^-32 for bounds under 2^32.
  constexpr std::uint64_t below(std::uint64_t bound) {
    return static_cast<std::uint64_t>((static_cast<Uint128>(next()) * bound) >> 64);
  }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4]{};
};

}  // namespace ncgw::transport
