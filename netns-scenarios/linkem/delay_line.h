// Frames waiting for their delivery time: a min-heap on (time, arrival sequence), so frames due
// at the same instant leave in the order they were scheduled. Pure; holds opaque handles.
#pragma once
#include <cstdint>
#include <queue>
#include <vector>

namespace linkem {

// One scheduled frame copy.
struct Scheduled {
  std::int64_t at_ns;
  std::uint64_t seq;
  std::uint32_t handle;  // the I/O layer's buffer slot
  std::uint32_t len;
};

// Min-heap of scheduled frames.
class DelayLine {
 public:
  // Schedules `handle` (a frame of `len` bytes) for `at_ns`.
  void push(std::int64_t at_ns, std::uint32_t handle, std::uint32_t len) {
    heap_.push({at_ns, seq_++, handle, len});
  }
  // True when nothing waits.
  bool empty() const { return heap_.empty(); }
  // The earliest frame (requires !empty()).
  const Scheduled& top() const { return heap_.top(); }
  // Removes the earliest frame.
  void pop() { heap_.pop(); }
  // Number of frames waiting.
  std::size_t size() const { return heap_.size(); }

 private:
  // Orders the heap so the earliest (then lowest seq) is on top.
  struct Later {
    bool operator()(const Scheduled& a, const Scheduled& b) const {
      return a.at_ns != b.at_ns ? a.at_ns > b.at_ns : a.seq > b.seq;
    }
  };
  std::priority_queue<Scheduled, std::vector<Scheduled>, Later> heap_;
  std::uint64_t seq_ = 0;
};

}  // namespace linkem
