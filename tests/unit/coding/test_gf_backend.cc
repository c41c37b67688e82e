// GF(2^8) arithmetic and the two kernel sets: ISA-L must agree with the scalar reference.
#include <gtest/gtest.h>
#include <isa-l/erasure_code.h>

#include <array>
#include <cstring>
#include <vector>

#include "coding/aligned_buffer.h"
#include "coding/backend.h"
#include "coding/gf256.h"
#include "coding/wire.h"
#include "transports/common/rng.h"

namespace ncgw::coding {
namespace {

TEST(Gf256, FieldAxiomsAndIsalAgreement) {
  for (unsigned a = 0; a < 256; ++a) {
    const auto ua = static_cast<std::uint8_t>(a);
    if (a != 0) EXPECT_EQ(gf::mul(ua, gf::inv(ua)), 1) << a;
    for (unsigned b = 0; b < 256; ++b) {
      const auto ub = static_cast<std::uint8_t>(b);
      ASSERT_EQ(gf::mul(ua, ub), ::gf_mul(ua, ub)) << a << "*" << b;
      ASSERT_EQ(gf::mul_row(ua)[b], gf::mul(ua, ub));
    }
  }
  // distributivity on a sample
  transport::Rng rng(7);
  for (int i = 0; i < 10000; ++i) {
    const auto a = static_cast<std::uint8_t>(rng.next()), b = static_cast<std::uint8_t>(rng.next()),
               c = static_cast<std::uint8_t>(rng.next());
    EXPECT_EQ(gf::mul(a, b ^ c), gf::mul(a, b) ^ gf::mul(a, c));
  }
}

TEST(GfKernels, SharedTablesMatchEcInitTables) {
  std::array<unsigned char, 32> expect{};
  for (unsigned c = 0; c < 256; ++c) {
    unsigned char coef = static_cast<unsigned char>(c);
    ec_init_tables(1, 1, &coef, expect.data());
    ASSERT_EQ(0, std::memcmp(expect.data(), isal_table(coef), 32)) << c;
  }
}

// Random buffers of `len` bytes, `count` of them, from `rng`.
std::vector<AlignedBuffer> random_buffers(transport::Rng& rng, std::size_t count, std::size_t len) {
  std::vector<AlignedBuffer> out;
  for (std::size_t i = 0; i < count; ++i) {
    out.emplace_back(len);
    for (std::size_t x = 0; x < len; ++x) out.back().data()[x] = static_cast<std::uint8_t>(rng.next());
  }
  return out;
}

TEST(GfKernels, IsalAgreesWithScalarOnRandomInputs) {
  const GfKernels& isal = kernels(Backend::kIsal);
  const GfKernels& scalar = kernels(Backend::kScalar);
  transport::Rng rng(42);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t len = padded_length(1 + rng.below(kMaxSymbolBytes));
    const std::size_t rows = 1 + rng.below(20);
    auto src = random_buffers(rng, 1, len);
    auto a = random_buffers(rng, rows, len);
    std::vector<AlignedBuffer> b;
    for (auto& x : a) {
      b.emplace_back(len);
      std::memcpy(b.back().data(), x.data(), len);
    }
    std::vector<std::uint8_t> coefs(rows);
    for (auto& c : coefs) c = static_cast<std::uint8_t>(rng.next());
    std::vector<std::uint8_t*> pa, pb;
    for (std::size_t r = 0; r < rows; ++r) { pa.push_back(a[r].data()); pb.push_back(b[r].data()); }
    // mad_rows, then mad, then scale, then dot: each checked against the oracle
    isal.mad_rows(len, rows, coefs.data(), src[0].data(), pa.data());
    scalar.mad_rows(len, rows, coefs.data(), src[0].data(), pb.data());
    for (std::size_t r = 0; r < rows; ++r) ASSERT_EQ(0, std::memcmp(pa[r], pb[r], len)) << "mad_rows " << r;
    isal.mad(len, coefs[0], src[0].data(), pa[0]);
    scalar.mad(len, coefs[0], src[0].data(), pb[0]);
    ASSERT_EQ(0, std::memcmp(pa[0], pb[0], len)) << "mad";
    const auto c = static_cast<std::uint8_t>(1 + rng.below(255));
    isal.scale(len, c, pa[0]);
    scalar.scale(len, c, pb[0]);
    ASSERT_EQ(0, std::memcmp(pa[0], pb[0], len)) << "scale";
    AlignedBuffer da(len), db(len);
    isal.dot(len, rows, coefs.data(), pa.data(), da.data());
    scalar.dot(len, rows, coefs.data(), pb.data(), db.data());
    ASSERT_EQ(0, std::memcmp(da.data(), db.data(), len)) << "dot";
  }
}

}  // namespace
}  // namespace ncgw::coding
