// One CW's encoder: symbol storage, incremental repair accumulation, on-demand combinations.
#include "coding/cw_encoder.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <stdexcept>

#include "coding/coefficients.h"
#include "transports/common/byte_order.h"

namespace ncgw::coding {

CwEncoder::CwEncoder(const CwEncoderLimits& limits, Backend backend)
    : limits_(limits), gf_(&kernels(backend)) {
  if (limits_.max_n == 0 || limits_.max_n > kMaxWindow || limits_.max_packet == 0 ||
      limits_.max_packet > kMaxPacket)
    throw std::invalid_argument("CwEncoderLimits out of range");
  stride_ = padded_length(kLengthPrefix + limits_.max_packet);
  sources_ = AlignedBuffer(stride_ * limits_.max_n);
  repairs_ = AlignedBuffer(stride_ * std::max<std::size_t>(limits_.max_accumulated, 1));
  scratch_ = AlignedBuffer(stride_);
  rows_.resize(std::max<std::size_t>(limits_.max_accumulated, 1));
  for (std::size_t r = 0; r < rows_.size(); ++r) rows_[r] = repairs_.data() + r * stride_;
  seeds_.resize(rows_.size());
  lens_.assign(limits_.max_n, 0);
  dirty_.assign(limits_.max_n, 0);
  tmp_coefs_.resize(std::max<std::size_t>(limits_.max_n, rows_.size()));
  srcs_.resize(limits_.max_n);
  for (std::size_t i = 0; i < limits_.max_n; ++i) srcs_[i] = sources_.data() + i * stride_;
}

void CwEncoder::open(std::uint64_t cw_id, std::uint64_t base, unsigned planned_n,
                     unsigned planned_k, std::uint64_t salt) {
  assert(planned_n >= 1 && planned_n <= limits_.max_n);
  for (std::size_t r = 0; r < rows_used_; ++r) std::memset(rows_[r], 0, padded_);
  cw_id_ = cw_id;
  base_ = base;
  salt_ = salt;
  count_ = 0;
  planned_n_ = planned_n;
  planned_k_ = planned_k;
  accumulated_ = static_cast<unsigned>(std::min<std::size_t>(planned_k, limits_.max_accumulated));
  rows_used_ = accumulated_;
  for (unsigned r = 0; r < accumulated_; ++r) seeds_[r] = repair_seed(salt_, cw_id_, r);
  closed_ = false;
  symbol_bytes_ = 0;
  padded_ = 0;
  hdr_ = CodingHeader{};  // template copied per combination (cheaper than building one each time)
  hdr_.cw_id = cw_id_;
  hdr_.base = base_;
}

Combination CwEncoder::add_source(std::span<const std::uint8_t> packet) {
  assert(!packet.empty() && packet.size() <= limits_.max_packet);
  std::memcpy(next_source_buffer().data(), packet.data(), packet.size());
  return commit_source(packet.size());
}

std::span<std::uint8_t> CwEncoder::next_source_buffer() {
  assert(!closed_ && count_ < planned_n_);
  return {sources_.data() + count_ * stride_ + kLengthPrefix, limits_.max_packet};
}

Combination CwEncoder::commit_source(std::size_t length) {
  assert(!closed_ && count_ < planned_n_);
  assert(length >= 1 && length <= limits_.max_packet);
  const unsigned i = count_;
  std::uint8_t* slot = sources_.data() + i * stride_;
  const std::size_t bytes = kLengthPrefix + length;
  transport::put_be16(slot, static_cast<std::uint16_t>(length));
  const std::size_t padded = padded_length(bytes);
  std::memset(slot + bytes, 0, std::max(dirty_[i], padded) - bytes);
  dirty_[i] = padded;
  lens_[i] = static_cast<std::uint16_t>(length);
  symbol_bytes_ = std::max(symbol_bytes_, bytes);
  padded_ = std::max(padded_, padded);
  accumulate(i);
  ++count_;
  if (count_ == planned_n_) closed_ = true;
  Combination c{hdr_, source(i)};
  c.header.closed = closed_;
  c.header.width = static_cast<std::uint8_t>(count_);
  c.header.index = static_cast<std::uint8_t>(i);
  return c;
}

void CwEncoder::accumulate(unsigned index) {
  if (accumulated_ == 0) return;
  for (unsigned r = 0; r < accumulated_; ++r) tmp_coefs_[r] = coefficient_at(seeds_[r], index);
  const std::uint8_t* src = sources_.data() + index * stride_;
  gf_->mad_rows(padded_length(kLengthPrefix + lens_[index]), accumulated_, tmp_coefs_.data(), src,
                rows_.data());
}

void CwEncoder::close() {
  assert(count_ >= 1);
  closed_ = true;
  planned_n_ = count_;
}

void CwEncoder::set_plan(unsigned planned_n, unsigned planned_k) {
  if (!closed_) {
    assert(planned_n >= count_ && planned_n >= 1 && planned_n <= limits_.max_n);
    planned_n_ = planned_n;
    if (count_ == planned_n_) closed_ = true;
  }
  planned_k_ = planned_k;
  const auto want = static_cast<unsigned>(std::min<std::size_t>(planned_k, limits_.max_accumulated));
  if (want > accumulated_) catch_up(accumulated_, want - accumulated_);
  accumulated_ = std::max(accumulated_, want);  // accumulators already built stay valid
  rows_used_ = std::max(rows_used_, accumulated_);
}

void CwEncoder::catch_up(unsigned first_row, unsigned rows) {
  for (unsigned r = first_row; r < first_row + rows; ++r) {
    seeds_[r] = repair_seed(salt_, cw_id_, r);
    if (count_ == 0) continue;  // zero already (cleared at open)
    coefficient_stream(seeds_[r], {tmp_coefs_.data(), count_});
    gf_->dot(padded_, count_, tmp_coefs_.data(), srcs_.data(), rows_[r]);
  }
}

CodingHeader CwEncoder::repair_header(Kind kind, std::uint32_t seed) const {
  CodingHeader h = hdr_;
  h.kind = kind;
  h.closed = closed_;
  h.width = static_cast<std::uint8_t>(count_);
  h.seed = seed;
  return h;
}

Combination CwEncoder::repair(std::uint32_t repair_no) {
  assert(count_ >= 1);
  if (repair_no < accumulated_)
    return {repair_header(Kind::kSeeded, seeds_[repair_no]), {rows_[repair_no], symbol_bytes_}};
  return seeded(repair_seed(salt_, cw_id_, repair_no));
}

Combination CwEncoder::seeded(std::uint32_t seed) {
  assert(count_ >= 1);
  coefficient_stream(seed, {tmp_coefs_.data(), count_});
  gf_->dot(padded_, count_, tmp_coefs_.data(), srcs_.data(), scratch_.data());
  return {repair_header(Kind::kSeeded, seed), {scratch_.data(), symbol_bytes_}};
}

Combination CwEncoder::explicit_combination(std::span<const std::uint8_t> coefs) {
  assert(count_ >= 1 && coefs.size() == count_);
  gf_->dot(padded_, count_, coefs.data(), srcs_.data(), scratch_.data());
  CodingHeader h = repair_header(Kind::kExplicit, 0);
  std::copy(coefs.begin(), coefs.end(), h.coefs.begin());
  return {h, {scratch_.data(), symbol_bytes_}};
}

std::span<const std::uint8_t> CwEncoder::source(std::size_t i) const {
  assert(i < count_);
  return {sources_.data() + i * stride_ + kLengthPrefix, lens_[i]};
}

}  // namespace ncgw::coding
