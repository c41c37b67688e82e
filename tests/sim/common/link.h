// A simulated one-way link: a chain of LinkElements and the packets in flight, ordered by arrival.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <span>
#include <utility>
#include <vector>

#include "tests/sim/common/link_elements.h"

namespace ncgw::sim {

// A datagram in flight on a link.
struct InFlight {
  TimePoint arrival;             // when it reaches the far end
  std::uint64_t order = 0;       // entry order, breaks ties so equal times stay FIFO
  std::vector<std::uint8_t> bytes;
};

// One direction of a path. Packets enter with push() and leave with pop_arrival().
class Link {
 public:
  // Appends an element to the chain; returns it for inspection.
  template <class E, class... Args>
  E& add(Args&&... args) {
    auto e = std::make_unique<E>(std::forward<Args>(args)...);
    E& ref = *e;
    elements_.push_back(std::move(e));
    return ref;
  }
  // Appends an already built element (e.g. GilbertElliottLoss::from_rate_and_burst).
  template <class E>
  E& add_element(E element) { return add<E>(std::move(element)); }

  // Rewrites surviving packets (bytes, 0-based entry index); e.g. to corrupt or re-encode them.
  using Mutator = std::function<void(std::vector<std::uint8_t>& bytes, std::uint64_t index)>;
  void set_mutator(Mutator m) { mutator_ = std::move(m); }
  // Duplicates each surviving packet with probability `p`; the copy arrives `extra` later.
  void set_duplication(double p, Duration extra, std::uint64_t seed) {
    dup_p_ = p; dup_extra_ = extra; dup_rng_ = Rng(seed);
  }
  // Copies made by duplication so far.
  std::uint64_t duplicated() const { return duplicated_; }

  // A datagram enters the link at `now`; it is copied if it survives every element.
  void push(std::span<const std::uint8_t> bytes, TimePoint now);
  // Arrival time of the next packet, if any is in flight.
  std::optional<TimePoint> next_arrival() const;
  // Removes and returns the next packet if it has arrived by `now`.
  std::optional<InFlight> pop_arrival(TimePoint now);
  // Drops everything in flight (e.g. a cable pulled); returns how many.
  std::size_t clear_in_flight();

  // Packets that entered the link.
  std::uint64_t entered() const { return entered_; }
  // Packets that came out of the far end.
  std::uint64_t delivered() const { return delivered_; }
  // Packets dropped by any element.
  std::uint64_t dropped() const;
  // The elements, in order.
  const std::vector<std::unique_ptr<LinkElement>>& elements() const { return elements_; }

 private:
  struct Later {
    bool operator()(const InFlight& a, const InFlight& b) const {
      return a.arrival != b.arrival ? a.arrival > b.arrival : a.order > b.order;
    }
  };
  std::vector<std::unique_ptr<LinkElement>> elements_;
  std::priority_queue<InFlight, std::vector<InFlight>, Later> in_flight_;
  std::uint64_t entered_ = 0;
  std::uint64_t delivered_ = 0;
  Mutator mutator_;
  double dup_p_ = 0;
  Duration dup_extra_{};
  Rng dup_rng_{1};
  std::uint64_t duplicated_ = 0;
};

}  // namespace ncgw::sim
