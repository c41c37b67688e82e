// Encoder of one coding window (CW): stores its sources as padded symbols, accumulates the planned
// repairs incrementally as sources arrive, and produces any further combination on demand, also
// long after the CW closed (coded retransmission; docs/tcpnc-mechanism.md "Enhanced retransmission").
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "coding/aligned_buffer.h"
#include "coding/backend.h"
#include "coding/header.h"

namespace ncgw::coding {

// A combination ready to send: its coding header and payload. The payload span points into the
// encoder and stays valid until the next non-const call on the same CW.
struct Combination {
  CodingHeader header;                    // serialise with write_header()
  std::span<const std::uint8_t> payload;  // source: the bare packet; repair: the coded symbol bytes
};

// Sizes an encoder preallocates (bounded memory, no allocation per packet).
struct CwEncoderLimits {
  std::size_t max_n = kMaxWindow;        // sources per CW (<= kMaxWindow)
  std::size_t max_accumulated = 16;      // repairs accumulated incrementally per CW
  std::size_t max_packet = kMaxPacket;   // largest source packet (<= kMaxPacket)
};

// One CW. Life cycle: open() -> add_source()* -> [set_plan()] -> close() (explicit, or automatic
// when count reaches planned n) -> repair()* ... -> reopened for a later CW by its owner.
class CwEncoder {
 public:
  // Preallocates max_n source symbols, max_accumulated repair accumulators and one scratch.
  CwEncoder(const CwEncoderLimits& limits, Backend backend);

  // Starts CW `cw_id` whose first source is number `base`, planning n sources and k repairs
  // (k accumulated incrementally, capped at max_accumulated). `salt` feeds repair_seed().
  // Clears repair accumulators. Requires 1 <= planned_n <= max_n.
  void open(std::uint64_t cw_id, std::uint64_t base, unsigned planned_n, unsigned planned_k,
            std::uint64_t salt);

  // Adds the next source (1..max_packet bytes) and returns its systematic combination (header
  // kSource, payload = the stored packet). Closes the CW when count reaches planned n, and then the
  // returned header carries `closed`. Requires !closed() and a valid length.
  Combination add_source(std::span<const std::uint8_t> packet);

  // Zero-copy alternative to add_source(): where the next source's packet goes (max_packet bytes,
  // e.g. read() it from the TUN device straight into this span). Write only the packet's bytes,
  // then call commit_source(). Requires !closed().
  std::span<std::uint8_t> next_source_buffer();
  // Makes the `length` bytes written into next_source_buffer() the next source; same result as
  // add_source() of those bytes. Requires 1 <= length <= max_packet.
  Combination commit_source(std::size_t length);

  // Closes the CW now (traffic paused): n becomes count(). Requires count() >= 1.
  void close();

  // Changes the plan in flight: planned n (>= count(), <= max_n; == count() closes the CW;
  // ignored once closed) and planned k (new accumulators, up to max_accumulated, catch up on the
  // sources already added; lowering k keeps the accumulators already built). Applies to this CW.
  void set_plan(unsigned planned_n, unsigned planned_k);

  // Repair number `repair_no` (seeded with repair_seed(salt, cw_id, repair_no)) over the sources
  // added so far; closed() CWs give width n and the closed flag. Accumulated repairs cost nothing
  // here; others are computed into the scratch buffer. Requires count() >= 1.
  Combination repair(std::uint32_t repair_no);

  // A combination with caller-chosen seed over the sources added so far (scratch buffer).
  Combination seeded(std::uint32_t seed);

  // A combination with explicit coefficients (size == count(), kExplicit header; scratch buffer).
  Combination explicit_combination(std::span<const std::uint8_t> coefs);

  // Stored packet i (exact bytes), e.g. to resend a source verbatim.
  std::span<const std::uint8_t> source(std::size_t i) const;

  std::uint64_t cw_id() const { return cw_id_; }          // this CW's id
  std::uint64_t base() const { return base_; }            // source number of source 0
  unsigned count() const { return count_; }               // sources added so far
  unsigned planned_n() const { return planned_n_; }       // current plan for n
  unsigned planned_k() const { return planned_k_; }       // current plan for k
  bool closed() const { return closed_; }                 // n is final (== count())
  // Bytes of a repair payload: the longest symbol so far, 2 + longest packet.
  std::size_t symbol_bytes() const { return symbol_bytes_; }

 private:
  CodingHeader repair_header(Kind kind, std::uint32_t seed) const;
  void accumulate(unsigned index);
  void catch_up(unsigned first_row, unsigned rows);

  CwEncoderLimits limits_;
  const GfKernels* gf_;
  AlignedBuffer sources_;       // max_n symbols of padded_length(kLengthPrefix + max_packet)
  AlignedBuffer repairs_;       // max_accumulated accumulators of the same size
  AlignedBuffer scratch_;       // on-demand combinations
  std::size_t stride_ = 0;      // bytes per symbol slot
  std::vector<std::uint32_t> seeds_;   // seeds of the accumulated repairs
  std::vector<std::uint8_t*> rows_;   // accumulator pointers (for mad_rows)
  std::vector<std::uint16_t> lens_;   // packet length of each stored source
  std::vector<std::size_t> dirty_;    // bytes of each source slot that may be non-zero
  std::vector<std::uint8_t> tmp_coefs_;  // one column / one vector, sized once
  std::vector<const std::uint8_t*> srcs_;  // source pointers (for dot)
  std::uint64_t cw_id_ = 0, base_ = 0, salt_ = 0;
  unsigned count_ = 0, planned_n_ = 0, planned_k_ = 0, accumulated_ = 0;
  unsigned rows_used_ = 0;        // accumulators written since the last open (to clear)
  bool closed_ = false;
  std::size_t symbol_bytes_ = 0;  // max over added sources of kLengthPrefix + length
  std::size_t padded_ = 0;        // padded_length(symbol_bytes_): accumulators valid up to here
  CodingHeader hdr_;              // kSource header of this CW (id, base), copied per combination
};

}  // namespace ncgw::coding
