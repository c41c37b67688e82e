// The decoder's window of CW slots: base/n bookkeeping across CWs, the seen number and release.
#pragma once
#include <optional>
#include <vector>

#include "coding/aligned_buffer.h"
#include "coding/cw_slot.h"
#include "coding/decoder.h"

namespace ncgw::coding {

// Implementation behind Decoder (see decoder.h for the contract of each member).
class DecoderImpl {
 public:
  explicit DecoderImpl(const DecoderConfig& cfg);

  FeedResult feed(const CodingHeader& h, std::span<const std::uint8_t> payload);
  FeedResult feed_datagram(std::span<const std::uint8_t> datagram);
  std::uint64_t seen() const;
  std::uint64_t next_release() const { return oldest_base_ + release_idx_; }
  std::span<const std::uint8_t> front() const;
  void drop_front();
  std::optional<CwStatus> status(std::uint64_t cw_id) const;
  std::size_t incomplete(std::span<CwStatus> out) const;
  std::uint64_t oldest_cw() const { return oldest_; }
  const DecoderStats& stats() const { return stats_; }

 private:
  FeedResult place(const CodingHeader& h, std::span<const std::uint8_t> payload);
  bool payload_ok(const CodingHeader& h, std::size_t size) const;
  bool consistent(const CwSlot& s, const CodingHeader& h) const;
  void learn(CwSlot& s, const CodingHeader& h);
  std::optional<std::uint64_t> known_base(std::uint64_t id) const;
  const CwSlot* live_slot(std::uint64_t id) const;
  CwSlot& slot_for(std::uint64_t id);
  // Returns the row block of slot `slot_index` (its CW released) to the top of the free stack.
  void give_back_rows(std::size_t slot_index);
  static bool complete(const CwSlot& s) { return s.n_final && s.rank == s.width; }
  CwStatus make_status(std::uint64_t id) const;
  void settle();

  DecoderConfig cfg_;
  std::size_t stride_;
  AlignedBuffer storage_;      // max_open blocks of max_n row buffers
  AlignedBuffer row_states_;   // max_open blocks of max_n CwRowState, zero until used
  std::vector<CwSlot> slots_;
  // Blocks are lent to slots as CWs arrive and given back as they are released, last in first
  // out, so the pages in use follow the CWs open at once, not the slot count: the ring of slots
  // would otherwise write every block in turn.
  std::vector<std::uint32_t> free_blocks_;  // stack of unlent block indexes
  std::vector<std::uint32_t> block_of_;     // per slot: its block, or kNoBlock
  static constexpr std::uint32_t kNoBlock = ~std::uint32_t{0};
  std::uint64_t oldest_, oldest_base_, highest_;  // highest: largest CW id given a slot
  unsigned release_idx_ = 0;                       // next source index to release in oldest_
  DecoderStats stats_;
};

}  // namespace ncgw::coding
