#include "tests/sim/common/link.h"

namespace ncgw::sim {

void Link::push(std::span<const std::uint8_t> bytes, TimePoint now) {
  const std::uint64_t order = entered_++;
  TimePoint t = now;
  for (auto& e : elements_) {
    auto out = e->process(bytes, t);
    if (!out) return;
    t = *out;
  }
  std::vector<std::uint8_t> copy(bytes.begin(), bytes.end());
  if (mutator_) mutator_(copy, order);
  if (dup_p_ > 0 && dup_rng_.bernoulli(dup_p_)) {
    ++duplicated_;
    in_flight_.push(InFlight{t + dup_extra_, order, copy});
  }
  in_flight_.push(InFlight{t, order, std::move(copy)});
}

std::optional<TimePoint> Link::next_arrival() const {
  if (in_flight_.empty()) return std::nullopt;
  return in_flight_.top().arrival;
}

std::optional<InFlight> Link::pop_arrival(TimePoint now) {
  if (in_flight_.empty() || in_flight_.top().arrival > now) return std::nullopt;
  InFlight p = std::move(const_cast<InFlight&>(in_flight_.top()));
  in_flight_.pop();
  ++delivered_;
  return p;
}

std::size_t Link::clear_in_flight() {
  const std::size_t n = in_flight_.size();
  while (!in_flight_.empty()) in_flight_.pop();
  return n;
}

std::uint64_t Link::dropped() const {
  std::uint64_t n = 0;
  for (const auto& e : elements_) n += e->dropped();
  return n;
}

}  // namespace ncgw::sim
