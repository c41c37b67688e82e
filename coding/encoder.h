// The sender's bounded ring of coding windows: CWs open in order with consecutive ids and
// consecutive source numbers (CW c+1's base = CW c's base + its n), several stay unacknowledged
// at once, and the oldest are released once the receiver's seen number covers them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "coding/cw_encoder.h"

namespace ncgw::coding {

// Sizes and identity of a sender's coding stream.
struct EncoderConfig {
  std::size_t max_open = 16;           // CWs held at once (filling + closed, unreleased)
  CwEncoderLimits limits{};            // per-CW preallocation
  Backend backend = Backend::kIsal;    // vector kernels
  std::uint64_t salt = 0;              // per-stream random value for repair seeds (from the caller's Rng)
  std::uint64_t first_cw_id = 0;       // id of the first CW (the decoder must be told the same)
  std::uint64_t first_source = 0;      // source number of the first source (likewise)
};

// CwEncoder slots, all preallocated at construction (their buffers are zero pages until written).
// A CW takes the slot freed last, so the memory written follows the CWs held at once, not the
// slot count.
class Encoder {
 public:
  // Preallocates max_open CwEncoders.
  explicit Encoder(const EncoderConfig& cfg);

  // Opens the next CW (planned n, k) if a slot is free and no CW is still filling; else nullptr.
  CwEncoder* open(unsigned planned_n, unsigned planned_k);
  // The CW currently accepting sources (opened, not closed), or nullptr.
  CwEncoder* filling();
  // The held CW with this id (filling or closed, not released), or nullptr.
  CwEncoder* find(std::uint64_t cw_id);
  // Releases held, closed CWs from the oldest while all their sources are below `seen` (the
  // receiver's cumulative DoF). Returns how many were released.
  std::size_t release_through(std::uint64_t seen);
  // Releases the oldest held CW (closed or not). Returns false if none is held.
  bool release_oldest();

  std::size_t held() const { return held_; }                    // CWs held now
  bool full() const { return held_ == slots_.size(); }          // no slot free for open()
  std::uint64_t oldest_id() const { return oldest_id_; }        // id of the oldest held CW
  std::uint64_t next_id() const { return next_id_; }            // id the next open() gets
  // Source number the next added source gets (in the filling CW, or the next CW's base).
  std::uint64_t next_source() const;
 private:
  CwEncoder& slot(std::uint64_t cw_id) { return slots_[slot_of_[cw_id % slots_.size()]]; }
  const CwEncoder& slot(std::uint64_t cw_id) const { return slots_[slot_of_[cw_id % slots_.size()]]; }

  EncoderConfig cfg_;
  std::vector<CwEncoder> slots_;
  std::vector<std::uint32_t> slot_of_;     // by CW id modulo max_open: the slot of a held CW
  std::vector<std::uint32_t> free_slots_;  // stack of free slots, the one freed last on top
  std::size_t held_ = 0;
  std::uint64_t oldest_id_ = 0, next_id_ = 0, next_source_ = 0;
};

}  // namespace ncgw::coding
