// The coefficient generator: a fixed PRNG of our own so that any implementation reproduces the
// coefficients of a seeded combination bit for bit (docs/coding-wire.md, "Coefficients").
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

namespace ncgw::coding {

// Fills out[0..out.size()) with the first coefficients of `seed`: the bytes (little-endian order
// within each word) of successive splitmix64 outputs whose state starts at the 32-bit seed.
// Coefficient i does not depend on how many are asked for (prefix property), which is what lets
// an encoder accumulate a repair before it knows the CW's final n. Values are uniform on 0..255.
void coefficient_stream(std::uint32_t seed, std::span<std::uint8_t> out);

// Coefficient i of `seed` alone (same value as coefficient_stream would give at position i).
std::uint8_t coefficient_at(std::uint32_t seed, std::size_t i);

// The seed an encoder uses for repair number `repair_no` of CW `cw_id` under a per-stream `salt`
// (a sender-chosen random value). Any seed is valid on the wire; this is only the sender's choice,
// distinct per (cw_id, repair_no) with overwhelming probability.
std::uint32_t repair_seed(std::uint64_t salt, std::uint64_t cw_id, std::uint32_t repair_no);

}  // namespace ncgw::coding
