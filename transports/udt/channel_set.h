// The UDT connections that carry one tunnel (its channels), multiplexed on one Endpoint by socket
// id: opening them (caller, rendezvous), taking them in (listener), dropping the dead ones, and the
// counters of every connection that came and went. A channel lives in a slot (0..kMaxSlots-1)
// that the ChannelMap routes flows to.
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <optional>

#include "transports/udt/channel_map.h"
#include "transports/udt/endpoint.h"

namespace ncgw::udt {

// Calls f(slot) for each set bit of `mask`, lowest first.
template <class F>
void for_each_slot(std::uint64_t mask, F&& f) {
  while (mask != 0) {
    const int s = std::countr_zero(mask);
    mask &= mask - 1;
    f(s);
  }
}

class ChannelSet {
 public:
  static constexpr int kMaxSlots = ChannelMap::kMaxSlots;

  // An empty set whose endpoint draws socket ids and sequence numbers from `seed`.
  explicit ChannelSet(std::uint64_t seed) : ep_(seed) {}

  Endpoint& endpoint() { return ep_; }
  const Endpoint& endpoint() const { return ep_; }

  // Opens a channel toward `peer` in the lowest free slot, as a caller (or by rendezvous);
  // returns the slot, or nothing when every slot is taken.
  std::optional<int> open(bool rendezvous, const PeerAddress& peer, const ConnectionSettings& s,
                          transport::TimePoint now);
  // Takes in the connections the endpoint's listener accepted. At most `cap` channels are held:
  // beyond that the oldest is dropped (a restarted caller's channels replace its old ones).
  void adopt_accepted(int cap);
  // Drops the dead channels (see dead()); returns how many.
  int reap();
  // True for a connection that broke, timed out, was refused, or was closed and has nothing left
  // to read.
  static bool dead(const Connection& c);
  // True if some channel is dead and waits for reap().
  bool has_dead() const;

  // The connection in `slot`, or null.
  Connection* conn(int slot);
  const Connection* conn(int slot) const;
  // Slots holding a connection in any state / a connected one.
  std::uint64_t used_mask() const { return used_; }
  std::uint64_t connected_mask() const;
  // Connections that reached the connected state so far (counted once each).
  std::uint64_t sessions() const { return sessions_; }
  // Counts newly connected channels into sessions().
  void count_established();
  // Counters summed over the live channels and every channel dropped before.
  ConnStats totals() const;
  // Packets that were still unacknowledged in channels when they died (lost with them).
  std::uint64_t lost_with_channels() const { return lost_with_channels_; }
  // Channels dropped so far, by the state their connection ended in (ConnState as index).
  const std::array<std::uint64_t, 8>& ended_by_state() const { return ended_; }

 private:
  // One channel: its connection's socket id and address, whether it was counted as established,
  // and when it was taken (for the listener's oldest-first replacement).
  struct Slot {
    std::int32_t id = 0;
    Connection* conn = nullptr;  // owned by ep_; valid until drop() removes it
    bool counted = false;
    std::uint64_t order = 0;
  };
  std::optional<int> free_slot() const;
  void place(int slot, std::int32_t id);
  void drop(int slot);

  Endpoint ep_;
  std::array<Slot, kMaxSlots> slots_{};
  std::uint64_t used_ = 0;
  std::uint64_t next_order_ = 0;
  std::uint64_t sessions_ = 0;
  std::uint64_t lost_with_channels_ = 0;
  std::array<std::uint64_t, 8> ended_{};
  ConnStats past_;  // counters of dropped channels
};

}  // namespace ncgw::udt
