#include "transports/udt/receiver.h"

#include <cstring>

#include "transports/udt/seq.h"

namespace ncgw::udt {

Receiver::Receiver(std::uint32_t packets, std::uint32_t max_payload) : size_(packets < 32 ? 32 : packets),
                                                                       max_payload_(max_payload) {
  std::uint32_t cap = 64;
  while (cap < size_) cap <<= 1;
  mask_ = cap - 1;
  state_.assign(cap, Slot::empty);
  msg_.assign(cap, 0);
  len_.assign(cap, 0);
  bytes_ = std::make_unique_for_overwrite<std::uint8_t[]>(static_cast<std::size_t>(cap) * max_payload_);
}

void Receiver::start(std::int32_t isn) {
  read_ = contig_ = isn;
  curr_ = seq::dec(isn);
  holes_ = 0;
  read_off_ = 0;
  std::fill(state_.begin(), state_.end(), Slot::empty);
}

std::int32_t Receiver::avail_buffer() const {
  const std::int32_t unread = seq::off(read_, contig_);
  const std::int32_t a = static_cast<std::int32_t>(size_) - unread - 1;
  return a < wire::kMinAdvertisedBuffer ? wire::kMinAdvertisedBuffer : a;
}

Receiver::Arrival Receiver::on_data(std::int32_t s, std::uint32_t msg_word, std::span<const std::uint8_t> payload,
                                    std::optional<Range>& gap) {
  gap.reset();
  const std::int32_t off = seq::off(read_, s);
  if (off < 0) return Arrival::duplicate;
  if (off >= static_cast<std::int32_t>(size_) - 1 || payload.size() > max_payload_) return Arrival::out_of_window;
  if (state_[idx(s)] != Slot::empty) return Arrival::duplicate;
  if (seq::cmp(s, seq::inc(curr_)) > 0) {
    gap = Range{seq::inc(curr_), seq::dec(s)};
    holes_ += static_cast<std::uint32_t>(seq::len((*gap)[0], (*gap)[1]));
  } else if (seq::cmp(s, curr_) <= 0) {
    --holes_;  // a retransmission filled a hole
  }
  if (seq::cmp(s, curr_) > 0) curr_ = s;
  state_[idx(s)] = Slot::present;
  msg_[idx(s)] = msg_word;
  len_[idx(s)] = static_cast<std::uint16_t>(payload.size());
  if (!payload.empty()) std::memcpy(slot_data(s), payload.data(), payload.size());
  advance_contig();
  return Arrival::stored;
}

void Receiver::advance_contig() {
  while (seq::cmp(contig_, curr_) <= 0 && state_[idx(contig_)] != Slot::empty) contig_ = seq::inc(contig_);
}

void Receiver::drop(const DropRequest& d) {
  if (seq::cmp(d.first, d.last) > 0) return;
  std::int32_t first = seq::max(d.first, read_);
  const std::int32_t limit = seq::add(read_, static_cast<std::int32_t>(size_) - 2);
  const std::int32_t last = seq::cmp(d.last, limit) > 0 ? limit : d.last;
  for (std::int32_t s = first; seq::cmp(s, last) <= 0; s = seq::inc(s)) {
    Slot& st = state_[idx(s)];
    if (st == Slot::empty) {
      st = Slot::dropped;
      if (seq::cmp(s, curr_) <= 0) --holes_;
    } else if (st == Slot::present && msg_no(msg_[idx(s)]) == d.msgno) {
      st = Slot::dropped;
    }
  }
  // earlier packets of the same message already here are dropped too
  for (std::int32_t s = seq::dec(first); seq::cmp(s, read_) >= 0; s = seq::dec(s)) {
    if (state_[idx(s)] != Slot::present || msg_no(msg_[idx(s)]) != d.msgno) break;
    state_[idx(s)] = Slot::dropped;
  }
  if (seq::cmp(d.first, seq::inc(curr_)) <= 0 && seq::cmp(last, curr_) > 0) curr_ = last;
  advance_contig();
}

std::size_t Receiver::loss_ranges(std::span<Range> out) const {
  std::size_t n = 0;
  std::int32_t s = contig_;
  while (n < out.size() && seq::cmp(s, curr_) <= 0) {
    if (state_[idx(s)] != Slot::empty) { s = seq::inc(s); continue; }
    std::int32_t e = s;
    while (seq::cmp(seq::inc(e), curr_) <= 0 && state_[idx(seq::inc(e))] == Slot::empty) e = seq::inc(e);
    out[n++] = Range{s, e};
    s = seq::inc(e);
  }
  return n;
}

std::optional<std::size_t> Receiver::read_message(std::span<std::uint8_t> out) {
  while (read_ != contig_) {
    if (state_[idx(read_)] != Slot::present || !msg_first(msg_[idx(read_)])) {
      release(read_);  // dropped, or the tail of a message whose head was dropped
      read_ = seq::inc(read_);
      continue;
    }
    const std::int32_t m = msg_no(msg_[idx(read_)]);
    std::int32_t s = read_;
    bool broken = false;
    while (true) {
      if (s == contig_) return std::nullopt;  // not complete yet
      if (state_[idx(s)] != Slot::present || msg_no(msg_[idx(s)]) != m || (s != read_ && msg_first(msg_[idx(s)]))) {
        broken = true;
        break;
      }
      if (msg_last(msg_[idx(s)])) break;
      s = seq::inc(s);
    }
    if (broken) {  // discard the incomplete message up to (not including) s
      for (; read_ != s; read_ = seq::inc(read_)) release(read_);
      continue;
    }
    std::size_t total = 0;
    for (std::int32_t t = read_;; t = seq::inc(t)) {
      const std::size_t n = len_[idx(t)];
      if (total < out.size()) std::memcpy(out.data() + total, slot_data(t), std::min(n, out.size() - total));
      total += n;
      release(t);
      if (t == s) break;
    }
    read_ = seq::inc(s);
    return total;
  }
  return std::nullopt;
}

std::size_t Receiver::read_stream(std::span<std::uint8_t> out) {
  std::size_t done = 0;
  while (done < out.size() && read_ != contig_) {
    if (state_[idx(read_)] != Slot::present) {
      release(read_);
      read_ = seq::inc(read_);
      read_off_ = 0;
      continue;
    }
    const std::size_t avail = len_[idx(read_)] - read_off_;
    const std::size_t n = std::min(avail, out.size() - done);
    std::memcpy(out.data() + done, slot_data(read_) + read_off_, n);
    done += n;
    read_off_ += static_cast<std::uint32_t>(n);
    if (read_off_ == len_[idx(read_)]) {
      release(read_);
      read_ = seq::inc(read_);
      read_off_ = 0;
    }
  }
  return done;
}

}  // namespace ncgw::udt
