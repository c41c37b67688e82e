// ISA-L implementation of GfKernels (SIMD with runtime dispatch).
#pragma once
#include "coding/backend.h"

namespace ncgw::coding {

// Kernels on gf_vect_mad, ec_encode_data_update, gf_vect_mul and ec_encode_data, fed from the
// shared precomputed coefficient tables (isal_table()).
class IsalKernels final : public GfKernels {
 public:
  void mad(std::size_t len, std::uint8_t c, const std::uint8_t* src, std::uint8_t* dest) const override;
  void mad_rows(std::size_t len, std::size_t rows, const std::uint8_t* coefs, const std::uint8_t* src,
                std::uint8_t* const* dests) const override;
  void scale(std::size_t len, std::uint8_t c, std::uint8_t* buf) const override;
  void dot(std::size_t len, std::size_t count, const std::uint8_t* coefs,
           const std::uint8_t* const* srcs, std::uint8_t* dest) const override;
};

}  // namespace ncgw::coding
