// Incremental Gauss-Jordan elimination of one CW. Coefficient work is done first, so a dependent
// combination costs no payload work; payload work is one gf mad per non-zero coefficient.
#include "coding/cw_slot.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "coding/coefficients.h"
#include "coding/gf256.h"
#include "transports/common/byte_order.h"

namespace ncgw::coding {

CwSlot::CwSlot(std::size_t stride, std::uint8_t* storage, const GfKernels* gf)
    : stride_(stride), storage_(storage), gf_(gf) {}

void CwSlot::reset(std::uint64_t id) {
  cw_id = id;
  live = true;
  base = 0;
  base_known = false;
  width = 0;
  n_final = false;
  rank = 0;
  pivots_ = 0;
  sources_seen_ = 0;
}

bool CwSlot::duplicate(const CodingHeader& h) const {
  if (h.kind == Kind::kSource) return (sources_seen_ >> h.index) & 1U;
  if (h.kind != Kind::kSeeded) return false;
  for (std::uint64_t m = pivots_; m != 0; m &= m - 1) {
    const int c = std::countr_zero(m);
    if (origin_width_[c] == h.width && seed_[c] == h.seed) return true;
  }
  return false;
}

void CwSlot::build(const CodingHeader& h, CoefRow& v) {
  v.fill(0);
  switch (h.kind) {
    case Kind::kSource: v[h.index] = 1; break;
    case Kind::kSeeded: coefficient_stream(h.seed, {v.data(), h.width}); break;
    case Kind::kExplicit: std::copy_n(h.coefs.begin(), h.width, v.begin()); break;
  }
}

std::uint64_t CwSlot::nonzero_mask(const CoefRow& v) {
  std::uint64_t m = 0;
  for (unsigned w = 0; w < 8; ++w) {  // 8 bytes at a time: high bit of each non-zero byte
    std::uint64_t x;
    std::memcpy(&x, v.data() + 8 * w, 8);
    const std::uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
    const std::uint64_t hi = (((x & low7) + low7) | x) & ~low7;
    m |= ((hi >> 7) * 0x0102040810204080ULL >> 56) << (8 * w);  // gather the 8 flags (LE order)
  }
  return m;
}

// v ^= f * row over the columns where row is non-zero (`nz`).
static void axpy_sparse(std::array<std::uint8_t, 64>& v, std::uint8_t f,
                        const std::array<std::uint8_t, 64>& row, std::uint64_t nz) {
  const std::uint8_t* mul = gf::mul_row(f);
  for (; nz != 0; nz &= nz - 1) {
    const int i = std::countr_zero(nz);
    v[i] ^= mul[row[i]];
  }
}

CwSlot::Outcome CwSlot::add(const CodingHeader& h, std::span<const std::uint8_t> payload) {
  if (duplicate(h)) return Outcome::kDuplicate;
  CoefRow v;
  build(h, v);
  std::array<std::uint8_t, 64> factor{};
  std::uint64_t ops = 0;
  for (std::uint64_t m = pivots_ & nonzero_mask(v); m != 0; m &= m - 1) {
    const int c = std::countr_zero(m);
    const std::uint8_t f = v[c];
    axpy_sparse(v, f, coef_[c], nz_[c]);
    factor[c] = f;
    ops |= std::uint64_t{1} << c;
  }
  const std::uint64_t nz = nonzero_mask(v);
  if (nz == 0) {
    if (h.kind == Kind::kSource) sources_seen_ |= std::uint64_t{1} << h.index;
    return Outcome::kDependent;
  }
  const auto p = static_cast<unsigned>(std::countr_zero(nz));
  load(p, h, payload);
  for (std::uint64_t m = ops; m != 0; m &= m - 1) {
    const int c = std::countr_zero(m);
    row_mad(p, static_cast<unsigned>(c), factor[c]);
  }
  const std::uint8_t lead = v[p];
  if (lead != 1) {
    const std::uint8_t inv = gf::inv(lead);
    const std::uint8_t* mul = gf::mul_row(inv);
    for (unsigned i = 0; i < 64; ++i) v[i] = mul[v[i]];
    gf_->scale(padded_length(len_[p]), inv, storage_ + p * stride_);
  }
  coef_[p] = v;
  nz_[p] = nz;
  back_substitute(p);
  pivots_ |= std::uint64_t{1} << p;
  ++rank;
  if (h.kind == Kind::kSource) sources_seen_ |= std::uint64_t{1} << h.index;
  origin_width_[p] = h.kind == Kind::kSeeded ? h.width : 0;
  seed_[p] = h.seed;
  return Outcome::kInnovative;
}

void CwSlot::load(unsigned p, const CodingHeader& h, std::span<const std::uint8_t> payload) {
  std::uint8_t* buf = storage_ + p * stride_;
  std::size_t len = payload.size();
  if (h.kind == Kind::kSource) {
    transport::put_be16(buf, static_cast<std::uint16_t>(payload.size()));
    std::memcpy(buf + kLengthPrefix, payload.data(), payload.size());
    len += kLengthPrefix;
  } else {
    std::memcpy(buf, payload.data(), payload.size());
  }
  if (dirty_[p] > len) std::memset(buf + len, 0, dirty_[p] - len);
  len_[p] = len;
  dirty_[p] = padded_length(len);
}

void CwSlot::row_mad(unsigned dest, unsigned src, std::uint8_t f) {
  const std::size_t len = std::max(len_[dest], len_[src]);
  const std::size_t padded = padded_length(len);
  gf_->mad(padded, f, storage_ + src * stride_, storage_ + dest * stride_);
  len_[dest] = len;
  dirty_[dest] = std::max(dirty_[dest], padded);
}

void CwSlot::back_substitute(unsigned p) {
  for (std::uint64_t m = pivots_; m != 0; m &= m - 1) {
    const int q = std::countr_zero(m);
    const std::uint8_t f = coef_[q][p];
    if (f == 0) continue;
    axpy_sparse(coef_[q], f, coef_[p], nz_[p]);
    nz_[q] = nonzero_mask(coef_[q]);
    row_mad(static_cast<unsigned>(q), p, f);
  }
}

std::uint64_t CwSlot::columns_used() const {
  std::uint64_t used = 0;
  for (std::uint64_t m = pivots_; m != 0; m &= m - 1) used |= nz_[std::countr_zero(m)];
  return used;
}

bool CwSlot::decoded(unsigned col) const {
  return col < 64 && ((pivots_ >> col) & 1U) && nz_[col] == (std::uint64_t{1} << col);
}

std::span<const std::uint8_t> CwSlot::row(unsigned col) const {
  return {storage_ + col * stride_, len_[col]};
}

}  // namespace ncgw::coding
