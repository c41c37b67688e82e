// Random bytes from the kernel's CSPRNG (getrandom). Failure is fatal: a secret is never silently
// zero or predictable.
#pragma once
#include <cstdint>
#include <span>

namespace ncgw::gateway {

// Fills `out` from getrandom(2); throws std::runtime_error if the kernel cannot.
void secure_random(std::span<std::uint8_t> out);

}  // namespace ncgw::gateway
