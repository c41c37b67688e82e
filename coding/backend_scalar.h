// Scalar reference implementation of GfKernels (the test oracle; ~100x slower than ISA-L).
#pragma once
#include "coding/backend.h"

namespace ncgw::coding {

// Plain C++ kernels over the gf:: tables.
class ScalarKernels final : public GfKernels {
 public:
  void mad(std::size_t len, std::uint8_t c, const std::uint8_t* src, std::uint8_t* dest) const override;
  void mad_rows(std::size_t len, std::size_t rows, const std::uint8_t* coefs, const std::uint8_t* src,
                std::uint8_t* const* dests) const override;
  void scale(std::size_t len, std::uint8_t c, std::uint8_t* buf) const override;
  void dot(std::size_t len, std::size_t count, const std::uint8_t* coefs,
           const std::uint8_t* const* srcs, std::uint8_t* dest) const override;
};

}  // namespace ncgw::coding
