// The sender's loss list: sequence numbers the peer reported lost (or EXP declared lost), as a
// preallocated bitmap ring indexed by sequence number, popped lowest first (CSndLossList).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

namespace ncgw::udt {

class SendLossList {
 public:
  // Holds losses spanning at most `span` sequence numbers (rounded up to a power of two).
  explicit SendLossList(std::uint32_t span);
  // Inserts [a, b]; returns how many were not already present.
  std::uint32_t insert(std::int32_t a, std::int32_t b);
  // Removes [a, b].
  void remove(std::int32_t a, std::int32_t b);
  // Removes everything at or before s.
  void remove_upto(std::int32_t s);
  // Removes and returns the lowest lost sequence number.
  std::optional<std::int32_t> pop_first();
  // Number of lost sequence numbers held.
  std::uint32_t size() const { return count_; }
  bool empty() const { return count_ == 0; }

 private:
  bool test(std::int32_t s) const { return (bits_[(s & mask_) >> 6] >> (s & 63)) & 1u; }
  void set(std::int32_t s) { bits_[(s & mask_) >> 6] |= (std::uint64_t{1} << (s & 63)); }
  void clear(std::int32_t s) { bits_[(s & mask_) >> 6] &= ~(std::uint64_t{1} << (s & 63)); }

  std::uint32_t cap_;
  std::int32_t mask_;
  std::vector<std::uint64_t> bits_;
  std::uint32_t count_ = 0;
  std::int32_t lo_ = 0;  // no set bit precedes lo_ (valid while count_ > 0)
};

}  // namespace ncgw::udt
