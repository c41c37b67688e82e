#include "gateway/fudp/flow_table.h"

#include <algorithm>

namespace ncgw::fudp {

FlowTable::FlowTable(std::size_t capacity) : slots_(std::max<std::size_t>(capacity, 1)) {
  std::size_t n = 1;
  while (n < 2 * slots_.size()) n *= 2;
  buckets_.assign(n, kNil);
  for (std::uint32_t i = static_cast<std::uint32_t>(slots_.size()); i-- > 0;) {
    slots_[i].chain = free_;
    free_ = i;
  }
}

std::uint32_t FlowTable::bucket_of(const FlowKey& key) const {
  return static_cast<std::uint32_t>(hash(key) & (buckets_.size() - 1));
}

std::uint32_t FlowTable::lookup(const FlowKey& key) const {
  for (std::uint32_t i = buckets_[bucket_of(key)]; i != kNil; i = slots_[i].chain) {
    if (slots_[i].flow.key == key) return i;
  }
  return kNil;
}

const Flow* FlowTable::find(const FlowKey& key) const {
  const std::uint32_t i = lookup(key);
  return i == kNil ? nullptr : &slots_[i].flow;
}

void FlowTable::unlink_recency(std::uint32_t i) {
  Slot& s = slots_[i];
  (s.prev == kNil ? head_ : slots_[s.prev].next) = s.next;
  (s.next == kNil ? tail_ : slots_[s.next].prev) = s.prev;
  s.prev = s.next = kNil;
}

void FlowTable::push_front(std::uint32_t i) {
  Slot& s = slots_[i];
  s.prev = kNil;
  s.next = head_;
  (head_ == kNil ? tail_ : slots_[head_].prev) = i;
  head_ = i;
}

void FlowTable::unlink_bucket(std::uint32_t i) {
  std::uint32_t* link = &buckets_[bucket_of(slots_[i].flow.key)];
  while (*link != i) link = &slots_[*link].chain;
  *link = slots_[i].chain;
}

void FlowTable::remove(std::uint32_t i) {
  unlink_bucket(i);
  unlink_recency(i);
  slots_[i].chain = free_;
  free_ = i;
  --size_;
}

std::uint32_t FlowTable::take_slot() {
  if (free_ == kNil) {
    remove(tail_);  // full: the flow seen least recently makes room
    ++counters_.evicted;
  }
  const std::uint32_t i = free_;
  free_ = slots_[i].chain;
  return i;
}

Flow& FlowTable::touch(const FlowKey& key, transport::TimePoint now) {
  std::uint32_t i = lookup(key);
  if (i == kNil) {
    i = take_slot();
    slots_[i].flow = Flow{};
    slots_[i].flow.key = key;
    slots_[i].flow.cls = flow_class(key);
    slots_[i].flow.first_seen = now;
    const std::uint32_t b = bucket_of(key);
    slots_[i].chain = buckets_[b];
    buckets_[b] = i;
    push_front(i);
    ++size_;
    ++counters_.inserted;
  } else if (head_ != i) {
    unlink_recency(i);
    push_front(i);
  }
  slots_[i].flow.last_seen = now;
  return slots_[i].flow;
}

std::size_t FlowTable::expire(transport::TimePoint now, transport::Duration idle) {
  std::size_t n = 0;
  while (tail_ != kNil && slots_[tail_].flow.last_seen + idle <= now) {
    remove(tail_);
    ++n;
  }
  counters_.expired += n;
  return n;
}

}  // namespace ncgw::fudp
