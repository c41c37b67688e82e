// The sender's ring of CWs.
#include "coding/encoder.h"

#include <stdexcept>

namespace ncgw::coding {

Encoder::Encoder(const EncoderConfig& cfg)
    : cfg_(cfg), oldest_id_(cfg.first_cw_id), next_id_(cfg.first_cw_id), next_source_(cfg.first_source) {
  if (cfg_.max_open == 0) throw std::invalid_argument("EncoderConfig.max_open must be >= 1");
  slots_.reserve(cfg_.max_open);
  for (std::size_t i = 0; i < cfg_.max_open; ++i) slots_.emplace_back(cfg_.limits, cfg_.backend);
  slot_of_.assign(cfg_.max_open, 0);
  free_slots_.reserve(cfg_.max_open);
  for (std::size_t i = cfg_.max_open; i-- > 0;) free_slots_.push_back(static_cast<std::uint32_t>(i));
}

CwEncoder* Encoder::open(unsigned planned_n, unsigned planned_k) {
  if (full() || filling() != nullptr) return nullptr;
  if (planned_n == 0 || planned_n > cfg_.limits.max_n) return nullptr;
  const std::uint64_t base = next_source();
  slot_of_[next_id_ % slots_.size()] = free_slots_.back();
  free_slots_.pop_back();
  CwEncoder& cw = slot(next_id_);
  cw.open(next_id_, base, planned_n, planned_k, cfg_.salt);
  ++next_id_;
  ++held_;
  return &cw;
}

CwEncoder* Encoder::filling() {
  if (held_ == 0) return nullptr;
  CwEncoder& newest = slot(next_id_ - 1);
  return newest.closed() ? nullptr : &newest;
}

CwEncoder* Encoder::find(std::uint64_t cw_id) {
  if (cw_id < oldest_id_ || cw_id >= next_id_) return nullptr;
  return &slot(cw_id);
}

std::uint64_t Encoder::next_source() const {
  if (held_ == 0) return next_source_;
  const CwEncoder& newest = slot(next_id_ - 1);
  return newest.base() + newest.count();
}

std::size_t Encoder::release_through(std::uint64_t seen) {
  std::size_t released = 0;
  while (held_ > 0) {
    CwEncoder& cw = slot(oldest_id_);
    if (!cw.closed() || cw.base() + cw.count() > seen) break;
    release_oldest();
    ++released;
  }
  return released;
}

bool Encoder::release_oldest() {
  if (held_ == 0) return false;
  CwEncoder& cw = slot(oldest_id_);
  if (held_ == 1) next_source_ = cw.base() + cw.count();
  if (!cw.closed() && cw.count() >= 1) cw.close();
  free_slots_.push_back(slot_of_[oldest_id_ % slots_.size()]);
  ++oldest_id_;
  --held_;
  return true;
}

}  // namespace ncgw::coding
