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

CwSlot::CwSlot(std::size_t stride, std::uint8_t* storage, CwRowState* rows, const GfKernels* gf)
    : stride_(stride), storage_(storage), gf_(gf), rows_(rows) {}

void CwSlot::reset(std::uint64_t id) {
  cw_id = id;
  live = true;
  base = 0;
  base_known = false;
  width = 0;
  n_final = false;
  rank = 0;
  pivots_ = ColumnMask{};
  sources_seen_ = ColumnMask{};
}

bool CwSlot::duplicate(const CodingHeader& h) const {
  if (h.kind == Kind::kSource) return sources_seen_.test(h.index);
  if (h.kind != Kind::kSeeded) return false;
  for (ColumnMask m = pivots_; !m.none();) {
    const RowState& r = rows_[m.pop_lowest()];
    if (r.origin_width == h.width && r.seed == h.seed) return true;
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

ColumnMask CwSlot::nonzero_mask(const CoefRow& v) {
  ColumnMask m;
  for (std::size_t word = 0; word < ColumnMask::kWords; ++word) {
    std::uint64_t bits = 0;
    for (unsigned w = 0; w < 8; ++w) {  // 8 bytes at a time: high bit of each non-zero byte
      std::uint64_t x;
      std::memcpy(&x, v.data() + 64 * word + 8 * w, 8);
      const std::uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
      const std::uint64_t hi = (((x & low7) + low7) | x) & ~low7;
      bits |= ((hi >> 7) * 0x0102040810204080ULL >> 56) << (8 * w);  // gather the 8 flags (LE order)
    }
    m.set_word(word, bits);
  }
  return m;
}

// v ^= f * row over the columns where row is non-zero (`nz`).
template <class Row>
static void axpy_sparse(Row& v, std::uint8_t f, const Row& row, ColumnMask nz) {
  const std::uint8_t* mul = gf::mul_row(f);
  while (!nz.none()) {
    const unsigned i = nz.pop_lowest();
    v[i] ^= mul[row[i]];
  }
}

CwSlot::Outcome CwSlot::add(const CodingHeader& h, std::span<const std::uint8_t> payload) {
  if (duplicate(h)) return Outcome::kDuplicate;
  CoefRow v;
  build(h, v);
  CoefRow factor;
  ColumnMask ops;
  for (ColumnMask m = pivots_ & nonzero_mask(v); !m.none();) {
    const unsigned c = m.pop_lowest();
    const std::uint8_t f = v[c];
    axpy_sparse(v, f, rows_[c].coef, rows_[c].nz);
    factor[c] = f;
    ops.set(c);
  }
  const ColumnMask nz = nonzero_mask(v);
  if (nz.none()) {
    if (h.kind == Kind::kSource) sources_seen_.set(h.index);
    return Outcome::kDependent;
  }
  const unsigned p = nz.lowest();
  load(p, h, payload);
  for (ColumnMask m = ops; !m.none();) {
    const unsigned c = m.pop_lowest();
    row_mad(p, c, factor[c]);
  }
  const std::uint8_t lead = v[p];
  RowState& r = rows_[p];
  if (lead != 1) {
    const std::uint8_t inv = gf::inv(lead);
    const std::uint8_t* mul = gf::mul_row(inv);
    for (std::uint8_t& x : v) x = mul[x];
    gf_->scale(padded_length(r.len), inv, storage_ + p * stride_);
  }
  r.coef = v;
  r.nz = nz;
  back_substitute(p);
  pivots_.set(p);
  ++rank;
  if (h.kind == Kind::kSource) sources_seen_.set(h.index);
  r.origin_width = h.kind == Kind::kSeeded ? h.width : 0;
  r.seed = h.seed;
  return Outcome::kInnovative;
}

void CwSlot::load(unsigned p, const CodingHeader& h, std::span<const std::uint8_t> payload) {
  std::uint8_t* buf = storage_ + p * stride_;
  RowState& r = rows_[p];
  std::size_t len = payload.size();
  if (h.kind == Kind::kSource) {
    transport::put_be16(buf, static_cast<std::uint16_t>(payload.size()));
    std::memcpy(buf + kLengthPrefix, payload.data(), payload.size());
    len += kLengthPrefix;
  } else {
    std::memcpy(buf, payload.data(), payload.size());
  }
  if (r.dirty > len) std::memset(buf + len, 0, r.dirty - len);
  r.len = len;
  r.dirty = padded_length(len);
}

void CwSlot::row_mad(unsigned dest, unsigned src, std::uint8_t f) {
  RowState& d = rows_[dest];
  const std::size_t len = std::max(d.len, rows_[src].len);
  const std::size_t padded = padded_length(len);
  gf_->mad(padded, f, storage_ + src * stride_, storage_ + dest * stride_);
  d.len = len;
  d.dirty = std::max(d.dirty, padded);
}

void CwSlot::back_substitute(unsigned p) {
  const RowState& pr = rows_[p];
  for (ColumnMask m = pivots_; !m.none();) {
    const unsigned q = m.pop_lowest();
    RowState& qr = rows_[q];
    const std::uint8_t f = qr.coef[p];
    if (f == 0) continue;
    axpy_sparse(qr.coef, f, pr.coef, pr.nz);
    qr.nz = nonzero_mask(qr.coef);
    row_mad(q, p, f);
  }
}

ColumnMask CwSlot::columns_used() const {
  ColumnMask used;
  for (ColumnMask m = pivots_; !m.none();) used |= rows_[m.pop_lowest()].nz;
  return used;
}

bool CwSlot::decoded(unsigned col) const {
  return pivots_.test(col) && rows_[col].nz == ColumnMask::single(col);
}

std::span<const std::uint8_t> CwSlot::row(unsigned col) const {
  return {storage_ + col * stride_, rows_[col].len};
}

}  // namespace ncgw::coding
