// Packets handed from one worker's data path to another's (gateway.workers > 1). Each peer is
// served by one worker; a packet for it that another worker read from its TUN queue, or that a
// peer of another worker delivered for it (a cascade), crosses over here. One channel per ordered
// pair of workers: a single producer and a single consumer, fixed slots, no lock and no
// allocation per packet. The consumer's event loop is woken through an eventfd, once per batch.
#pragma once
#include <boost/lockfree/spsc_queue.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace ncgw::gateway {

// Packets waiting in one channel before the producer has to drop.
inline constexpr std::size_t kHandoffSlots = 2048;
// Smallest slot: an Ethernet MTU's packet.
inline constexpr std::size_t kMinHandoffSlot = 1500;

// One direction between two workers: fixed slots of `slot_bytes`, passed by index through two
// single-producer single-consumer queues (filled: producer to consumer; free: back).
class HandoffChannel {
 public:
  explicit HandoffChannel(std::size_t slot_bytes, std::size_t slots = kHandoffSlots);
  HandoffChannel(const HandoffChannel&) = delete;
  HandoffChannel& operator=(const HandoffChannel&) = delete;

  // Producer: copies `packet` for peer `peer`; false when no slot is free or it does not fit.
  bool push(std::size_t peer, std::span<const std::uint8_t> packet);
  // Consumer: calls `take(peer, packet)` for each waiting packet in order, at most `most`;
  // returns how many.
  template <class Take>
  std::size_t drain(std::size_t most, Take&& take) {
    std::size_t n = 0;
    std::uint32_t slot = 0;
    while (n < most && filled_.pop(slot)) {
      const Header& h = headers_[slot];
      take(static_cast<std::size_t>(h.peer), std::span<const std::uint8_t>(bytes_.data() + slot * slot_bytes_, h.length));
      free_.push(slot);
      ++n;
    }
    return n;
  }

 private:
  // What a filled slot holds.
  struct Header {
    std::uint32_t peer = 0;
    std::uint32_t length = 0;
  };
  std::size_t slot_bytes_;
  std::vector<std::uint8_t> bytes_;      // slot i at i * slot_bytes_
  std::vector<Header> headers_;          // index-aligned with the slots
  boost::lockfree::spsc_queue<std::uint32_t> filled_;
  boost::lockfree::spsc_queue<std::uint32_t> free_;
};

// Where one worker's packets go: a channel into each other worker and an eventfd that wakes it.
// Built once by the gateway before the workers run; shared read-only by all of them.
class HandoffMesh {
 public:
  HandoffMesh(std::size_t workers, std::size_t slot_bytes);
  ~HandoffMesh();
  HandoffMesh(const HandoffMesh&) = delete;
  HandoffMesh& operator=(const HandoffMesh&) = delete;

  std::size_t workers() const { return workers_; }
  // The channel from worker `from` into worker `to` (from != to).
  HandoffChannel& channel(std::size_t from, std::size_t to) { return *channels_[from * workers_ + to]; }
  // Wakes worker `to` (eventfd write).
  void wake(std::size_t to);
  // The eventfd worker `to` waits on (readable while woken; read it to re-arm).
  int wake_fd(std::size_t to) const { return wake_fds_[to]; }
  // Clears worker `to`'s wake-ups (eventfd read), before it drains its channels.
  void clear_wake(std::size_t to);

 private:
  std::size_t workers_;
  std::vector<std::unique_ptr<HandoffChannel>> channels_;  // [from * workers + to], null on the diagonal
  std::vector<int> wake_fds_;
};

}  // namespace ncgw::gateway
