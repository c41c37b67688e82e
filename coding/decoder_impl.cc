// Window bookkeeping: which CW a combination belongs to, what its base and n are, when CWs are
// complete and released, and the cumulative DoF.
#include "coding/decoder_impl.h"

#include <bit>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "transports/common/byte_order.h"

namespace ncgw::coding {

DecoderImpl::DecoderImpl(const DecoderConfig& cfg)
    : cfg_(cfg),
      stride_(padded_length(kLengthPrefix + cfg.max_packet)),
      oldest_(cfg.first_cw_id),
      oldest_base_(cfg.first_source),
      highest_(cfg.first_cw_id) {
  // Slots beyond a quarter of the CW id space would let a 16-bit wire id unwrap to the wrong CW.
  if (cfg_.max_open == 0 || cfg_.max_open > (std::size_t{1} << (kCwIdBits - 2)) || cfg_.max_n == 0 ||
      cfg_.max_n > kMaxWindow || cfg_.max_packet == 0 || cfg_.max_packet > kMaxPacket)
    throw std::invalid_argument("DecoderConfig out of range");
  storage_ = AlignedBuffer(cfg_.max_open * cfg_.max_n * stride_);
  static_assert(std::is_trivially_copyable_v<CwRowState> && alignof(CwRowState) <= kSymbolAlign);
  row_states_ = AlignedBuffer(cfg_.max_open * cfg_.max_n * sizeof(CwRowState));  // zero: initial state
  slots_.reserve(cfg_.max_open);
  for (std::size_t i = 0; i < cfg_.max_open; ++i)
    slots_.emplace_back(stride_, nullptr, nullptr, &kernels(cfg_.backend));  // rows lent by slot_for()
  block_of_.assign(cfg_.max_open, kNoBlock);
  free_blocks_.reserve(cfg_.max_open);
  for (std::size_t b = cfg_.max_open; b-- > 0;) free_blocks_.push_back(static_cast<std::uint32_t>(b));
}

const CwSlot* DecoderImpl::live_slot(std::uint64_t id) const {
  if (id < oldest_ || id - oldest_ >= cfg_.max_open) return nullptr;
  const CwSlot& s = slots_[id % cfg_.max_open];
  return s.live && s.cw_id == id ? &s : nullptr;
}

CwSlot& DecoderImpl::slot_for(std::uint64_t id) {
  const std::size_t i = id % cfg_.max_open;
  CwSlot& s = slots_[i];
  if (block_of_[i] == kNoBlock) {  // a free block exists: each lent one belongs to a CW in the window
    const std::uint32_t b = free_blocks_.back();
    free_blocks_.pop_back();
    block_of_[i] = b;
    s.bind(storage_.data() + b * cfg_.max_n * stride_,
           reinterpret_cast<CwRowState*>(row_states_.data()) + b * cfg_.max_n);
  }
  if (!s.live || s.cw_id != id) s.reset(id);
  if (id > highest_) highest_ = id;
  return s;
}

std::optional<std::uint64_t> DecoderImpl::known_base(std::uint64_t id) const {
  if (id == oldest_) return oldest_base_;
  if (const CwSlot* s = live_slot(id); s != nullptr && s->base_known) return s->base;
  const CwSlot* prev = live_slot(id - 1);
  if (prev != nullptr && prev->base_known && prev->n_final) return prev->base + prev->width;
  return std::nullopt;
}

bool DecoderImpl::payload_ok(const CodingHeader& h, std::size_t size) const {
  if (size == 0) return false;
  if (h.width > cfg_.max_n) return false;
  if (h.kind == Kind::kSource) return size <= cfg_.max_packet;
  return size <= kLengthPrefix + cfg_.max_packet;
}

// True if every row and source a slot holds lies below column n.
static bool fits(const CwSlot& s, std::uint64_t n) {
  return (s.columns_used() | s.sources_seen()).below(n);
}

bool DecoderImpl::consistent(const CwSlot& s, const CodingHeader& h) const {
  const std::optional<std::uint64_t> base = known_base(h.cw_id);
  if (base && *base != h.base) return false;
  if (s.n_final && (h.width > s.width || (h.closed && h.width != s.width))) return false;
  if (h.closed && !s.n_final) {
    if (h.width < s.width) return false;
    if (!fits(s, h.width)) return false;
  }
  const CwSlot* next = live_slot(h.cw_id + 1);
  if (next != nullptr && next->base_known) {
    if (next->base < h.base) return false;
    const std::uint64_t n = next->base - h.base;
    if (n == 0 || n > cfg_.max_n || h.width > n || (h.closed && h.width != n)) return false;
    if (!fits(s, n)) return false;
  }
  if (h.cw_id > oldest_) {  // the previous CW's n follows from this base
    const CwSlot* prev = live_slot(h.cw_id - 1);
    const std::optional<std::uint64_t> prev_base = known_base(h.cw_id - 1);
    if (prev_base && !(prev != nullptr && prev->n_final)) {
      if (h.base < *prev_base) return false;
      const std::uint64_t n = h.base - *prev_base;
      if (n == 0 || n > cfg_.max_n || (prev != nullptr && (n < prev->width || !fits(*prev, n)))) return false;
    }
  }
  return true;
}

void DecoderImpl::learn(CwSlot& s, const CodingHeader& h) {
  s.base = h.base;
  s.base_known = true;
  if (h.closed) s.n_final = true;
  if (!s.n_final && h.width > s.width) s.width = h.width;
  if (h.closed) s.width = h.width;
  if (CwSlot* next = const_cast<CwSlot*>(live_slot(h.cw_id + 1)); next && next->base_known && !s.n_final) {
    s.width = static_cast<unsigned>(next->base - h.base);
    s.n_final = true;
  }
  if (h.cw_id > oldest_) {  // the previous CW (even one of which nothing arrived) ends here
    const std::optional<std::uint64_t> prev_base = known_base(h.cw_id - 1);
    if (prev_base) {
      CwSlot& prev = slot_for(h.cw_id - 1);
      prev.base = *prev_base;
      prev.base_known = true;
      if (!prev.n_final) {
        prev.width = static_cast<unsigned>(h.base - *prev_base);
        prev.n_final = true;
      }
    }
  }
}

FeedResult DecoderImpl::feed(const CodingHeader& h, std::span<const std::uint8_t> payload) {
  const FeedResult r = place(h, payload);
  switch (r) {
    case FeedResult::kInnovative: ++stats_.innovative; break;
    case FeedResult::kDuplicate: ++stats_.duplicate; break;
    case FeedResult::kDependent: ++stats_.dependent; break;
    case FeedResult::kStale: ++stats_.stale; break;
    case FeedResult::kOutOfWindow: ++stats_.out_of_window; break;
    case FeedResult::kMalformed: ++stats_.malformed; break;
  }
  settle();
  return r;
}

FeedResult DecoderImpl::place(const CodingHeader& h, std::span<const std::uint8_t> payload) {
  if (h.width == 0 || h.width > kMaxWindow || (h.kind == Kind::kSource && h.index >= h.width))
    return FeedResult::kMalformed;
  if (h.cw_id < oldest_) return FeedResult::kStale;
  if (h.cw_id - oldest_ >= cfg_.max_open) return FeedResult::kOutOfWindow;
  if (!payload_ok(h, payload.size())) return FeedResult::kMalformed;
  if (const CwSlot* s = live_slot(h.cw_id); s != nullptr && complete(*s)) return FeedResult::kStale;
  CwSlot probe;  // an empty slot stands in when none is live yet (no state touched on failure)
  const CwSlot* current = live_slot(h.cw_id);
  if (current == nullptr) probe.reset(h.cw_id);
  if (!consistent(current ? *current : probe, h)) return FeedResult::kMalformed;
  CwSlot& s = slot_for(h.cw_id);
  learn(s, h);
  if (complete(s)) return FeedResult::kStale;  // learning n showed it was already decoded
  switch (s.add(h, payload)) {
    case CwSlot::Outcome::kInnovative: return FeedResult::kInnovative;
    case CwSlot::Outcome::kDuplicate: return FeedResult::kDuplicate;
    case CwSlot::Outcome::kDependent: return FeedResult::kDependent;
  }
  return FeedResult::kMalformed;
}

FeedResult DecoderImpl::feed_datagram(std::span<const std::uint8_t> datagram) {
  std::optional<ParsedCombination> pc = parse_combination(datagram);
  if (!pc) {
    ++stats_.malformed;
    return FeedResult::kMalformed;
  }
  pc->header.cw_id = unwrap_cw_id(oldest_, static_cast<std::uint16_t>(pc->header.cw_id));
  pc->header.base = unwrap32(oldest_base_, static_cast<std::uint32_t>(pc->header.base));
  return feed(pc->header, pc->payload);
}

std::uint64_t DecoderImpl::seen() const {
  std::uint64_t b = oldest_base_;
  for (std::uint64_t id = oldest_; id - oldest_ < cfg_.max_open; ++id) {
    const CwSlot* s = live_slot(id);
    if (s == nullptr) return b;
    if (!complete(*s)) return b + s->rank;
    b += s->width;
  }
  return b;
}

std::span<const std::uint8_t> DecoderImpl::front() const {
  const CwSlot* s = live_slot(oldest_);
  if (s == nullptr || (s->n_final && release_idx_ >= s->width) || !s->decoded(release_idx_)) return {};
  const std::span<const std::uint8_t> row = s->row(release_idx_);
  if (row.size() < kLengthPrefix) return {};
  const std::size_t len = transport::get_be16(row.data());
  if (len == 0 || len > cfg_.max_packet || len + kLengthPrefix > row.size()) return {};
  return row.subspan(kLengthPrefix, len);
}

void DecoderImpl::drop_front() {
  if (front().empty()) return;
  ++release_idx_;
  ++stats_.released;
  settle();
}

void DecoderImpl::settle() {
  for (;;) {
    const CwSlot* s = live_slot(oldest_);
    if (s == nullptr) return;
    if (s->n_final && release_idx_ >= s->width) {  // whole CW released: slide the window
      oldest_base_ += s->width;
      give_back_rows(oldest_ % cfg_.max_open);
      ++oldest_;
      release_idx_ = 0;
      continue;
    }
    if (s->decoded(release_idx_) && front().empty()) {  // decoded but its length field is bad
      ++stats_.corrupt;
      ++release_idx_;
      continue;
    }
    return;
  }
}

void DecoderImpl::give_back_rows(std::size_t slot_index) {
  free_blocks_.push_back(std::exchange(block_of_[slot_index], kNoBlock));
  slots_[slot_index].live = false;
  slots_[slot_index].bind(nullptr, nullptr);
}

CwStatus DecoderImpl::make_status(std::uint64_t id) const {
  CwStatus st;
  st.cw_id = id;
  if (std::optional<std::uint64_t> b = known_base(id)) {
    st.base = *b;
    st.base_known = true;
  }
  if (const CwSlot* s = live_slot(id)) {
    st.n = s->width;
    st.n_final = s->n_final;
    st.rank = s->rank;
    st.missing = s->width > s->rank ? s->width - s->rank : 0;
    st.complete = complete(*s);
  }
  return st;
}

std::optional<CwStatus> DecoderImpl::status(std::uint64_t id) const {
  if (id < oldest_ || id - oldest_ >= cfg_.max_open || id > highest_) return std::nullopt;
  return make_status(id);
}

std::size_t DecoderImpl::incomplete(std::span<CwStatus> out) const {
  std::size_t count = 0;
  for (std::uint64_t id = oldest_; id <= highest_ && id - oldest_ < cfg_.max_open; ++id) {
    if (count == out.size()) break;
    const CwStatus st = make_status(id);
    if (!st.complete) out[count++] = st;
  }
  return count;
}

}  // namespace ncgw::coding
