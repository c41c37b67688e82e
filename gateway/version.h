// The ncgw version string, from the CMake project version.
#pragma once

namespace ncgw::gateway {

// "0.1.0"
inline constexpr const char* kVersion = NCGW_VERSION;

}  // namespace ncgw::gateway
