// One CW's decoding state: rows in reduced row-echelon form (Gauss-Jordan), updated one
// combination at a time. Row p (when present) has its leading 1 at column p. Internal to the
// decoder; storage is lent by the owner.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "coding/backend.h"
#include "coding/column_mask.h"
#include "coding/header.h"

namespace ncgw::coding {

// What a CW slot keeps of the row whose pivot is one column, besides its payload buffer. All
// zero is the initial state, so an owner may lend rows from zeroed memory (calloc: untouched rows
// of a large reservation cost no memory).
struct CwRowState {
  std::array<std::uint8_t, ColumnMask::kBits> coef;  // coefficient row
  ColumnMask nz;               // its non-zero columns
  std::size_t len;             // payload bytes in use
  std::size_t dirty;           // payload bytes that may be non-zero
  std::uint32_t seed;          // origin seed (kSeeded rows)
  std::uint8_t origin_width;   // origin width (0: not a seeded row)
};

// Eliminates combinations of one CW; knows nothing of bases or of other CWs.
class CwSlot {
 public:
  // What add() did.
  enum class Outcome : std::uint8_t { kInnovative, kDuplicate, kDependent };

  // An unusable placeholder (no storage); only its bookkeeping fields may be read.
  CwSlot() = default;
  // `storage` holds max_n row buffers of `stride` bytes (64-byte aligned, zeroed) and `rows` max_n
  // zeroed row states; the owner guarantees every combination it passes has width <= max_n.
  CwSlot(std::size_t stride, std::uint8_t* storage, CwRowState* rows, const GfKernels* gf);

  // Lends the slot another block of row buffers and row states (as in the constructor; nullptr
  // for none). The rows keep the state the block's previous slot left: reset() cleans them
  // lazily as its own.
  void bind(std::uint8_t* storage, CwRowState* rows) {
    storage_ = storage;
    rows_ = rows;
  }

  // Empties the slot for CW `cw_id` (row buffers are cleaned lazily, as they are reused).
  void reset(std::uint64_t cw_id);

  // Eliminates one combination (header already validated against this CW) into the rows.
  Outcome add(const CodingHeader& h, std::span<const std::uint8_t> payload);

  // True if column `col` is decoded: its row is the unit vector e_col.
  bool decoded(unsigned col) const;
  // Row buffer of column `col` and the bytes in use (for a decoded column: the symbol).
  std::span<const std::uint8_t> row(unsigned col) const;
  // Columns holding a row.
  const ColumnMask& pivots() const { return pivots_; }
  // Columns on which any held row has a non-zero coefficient.
  ColumnMask columns_used() const;
  // Source indexes received systematically.
  const ColumnMask& sources_seen() const { return sources_seen_; }

  std::uint64_t cw_id = 0;     // CW this slot holds
  bool live = false;           // holds a CW (reset since construction)
  std::uint64_t base = 0;      // CW's first source number (if base_known)
  bool base_known = false;     // base learnt
  unsigned width = 0;          // final n if n_final, else the largest width seen
  bool n_final = false;        // n known exactly
  unsigned rank = 0;           // rows held

 private:
  using CoefRow = std::array<std::uint8_t, ColumnMask::kBits>;
  using RowState = CwRowState;
  bool duplicate(const CodingHeader& h) const;
  static void build(const CodingHeader& h, CoefRow& v);
  static ColumnMask nonzero_mask(const CoefRow& v);
  void load(unsigned p, const CodingHeader& h, std::span<const std::uint8_t> payload);
  void row_mad(unsigned dest, unsigned src, std::uint8_t f);
  void back_substitute(unsigned p);

  std::size_t stride_ = 0;
  std::uint8_t* storage_ = nullptr;
  const GfKernels* gf_ = nullptr;
  ColumnMask pivots_, sources_seen_;
  RowState* rows_ = nullptr;    // one per column (max_n), lent by the owner
};

}  // namespace ncgw::coding
