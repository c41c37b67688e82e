#include "transports/udt/loss_list.h"

#include "transports/udt/seq.h"

namespace ncgw::udt {

SendLossList::SendLossList(std::uint32_t span) {
  cap_ = 64;
  while (cap_ < span) cap_ <<= 1;
  mask_ = static_cast<std::int32_t>(cap_ - 1);
  bits_.assign(cap_ / 64, 0);
}

std::uint32_t SendLossList::insert(std::int32_t a, std::int32_t b) {
  if (seq::cmp(a, b) > 0) return 0;
  std::uint32_t n = static_cast<std::uint32_t>(seq::len(a, b));
  if (n > cap_) n = cap_;
  std::uint32_t added = 0;
  std::int32_t s = a;
  for (std::uint32_t i = 0; i < n; ++i, s = seq::inc(s)) {
    if (!test(s)) { set(s); ++added; }
  }
  if (added > 0 && (count_ == 0 || seq::cmp(a, lo_) < 0)) lo_ = a;
  count_ += added;
  return added;
}

void SendLossList::remove(std::int32_t a, std::int32_t b) {
  if (count_ == 0 || seq::cmp(a, b) > 0) return;
  std::uint32_t n = static_cast<std::uint32_t>(seq::len(a, b));
  if (n > cap_) n = cap_;
  std::int32_t s = a;
  for (std::uint32_t i = 0; i < n && count_ > 0; ++i, s = seq::inc(s)) {
    if (test(s)) { clear(s); --count_; }
  }
}

void SendLossList::remove_upto(std::int32_t s) {
  if (count_ == 0 || seq::cmp(s, lo_) < 0) return;
  remove(lo_, s);
  lo_ = seq::inc(s);
}

std::optional<std::int32_t> SendLossList::pop_first() {
  if (count_ == 0) return std::nullopt;
  std::int32_t s = lo_;
  for (std::uint32_t scanned = 0; scanned < cap_;) {
    const std::uint32_t bit = static_cast<std::uint32_t>(s & 63);
    const std::uint64_t word = bits_[(s & mask_) >> 6] >> bit;
    if (word == 0) {
      s = seq::add(s, static_cast<std::int32_t>(64 - bit));
      scanned += 64 - bit;
      continue;
    }
    s = seq::add(s, __builtin_ctzll(word));
    clear(s);
    --count_;
    lo_ = seq::inc(s);
    return s;
  }
  count_ = 0;  // unreachable if the invariant holds
  return std::nullopt;
}

}  // namespace ncgw::udt
