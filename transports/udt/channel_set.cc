#include "transports/udt/channel_set.h"

#include <algorithm>

namespace ncgw::udt {
namespace {

// Adds the counters (not the gauges) of `from` to `to`.
void add_counters(ConnStats& to, const ConnStats& from) {
  to.sent += from.sent;
  to.received += from.received;
  to.retransmitted += from.retransmitted;
  to.snd_loss += from.snd_loss;
  to.rcv_loss += from.rcv_loss;
}

}  // namespace

std::optional<int> ChannelSet::free_slot() const {
  const int s = std::countr_one(used_);
  return s < kMaxSlots ? std::optional<int>(s) : std::nullopt;
}

void ChannelSet::place(int slot, std::int32_t id) {
  slots_[static_cast<std::size_t>(slot)] = Slot{id, ep_.find(id), false, next_order_++};
  used_ |= std::uint64_t{1} << slot;
}

std::optional<int> ChannelSet::open(bool rendezvous, const PeerAddress& peer, const ConnectionSettings& s,
                                    transport::TimePoint now) {
  const auto slot = free_slot();
  if (!slot) return std::nullopt;
  place(*slot, rendezvous ? ep_.rendezvous(peer, s, now) : ep_.connect(peer, s, now));
  return slot;
}

void ChannelSet::adopt_accepted(int cap) {
  while (const auto id = ep_.accept()) {
    int held = 0, oldest = -1;
    for_each_slot(used_, [&](int s) {
      ++held;
      if (oldest < 0 || slots_[static_cast<std::size_t>(s)].order < slots_[static_cast<std::size_t>(oldest)].order) {
        oldest = s;
      }
    });
    if (held >= cap && oldest >= 0) drop(oldest);
    const auto slot = free_slot();
    if (!slot) {  // cap above kMaxSlots: refuse the newcomer rather than lose a live channel
      ep_.remove(*id);
      continue;
    }
    place(*slot, *id);
  }
}

void ChannelSet::drop(int slot) {
  Slot& sl = slots_[static_cast<std::size_t>(slot)];
  if (const Connection* c = sl.conn) {
    add_counters(past_, c->stats());
    ++ended_[static_cast<std::size_t>(c->state()) % ended_.size()];
    lost_with_channels_ += c->packets_queued() - c->packets_acked();
  }
  ep_.remove(sl.id);
  sl.conn = nullptr;
  used_ &= ~(std::uint64_t{1} << slot);
}

bool ChannelSet::dead(const Connection& c) {
  const ConnState st = c.state();
  return st == ConnState::broken || st == ConnState::timed_out || st == ConnState::rejected ||
         (st == ConnState::closed && !c.readable());
}

bool ChannelSet::has_dead() const {
  bool any = false;
  for_each_slot(used_, [&](int s) {
    const Connection* c = conn(s);
    any = any || (c && dead(*c));
  });
  return any;
}

int ChannelSet::reap() {
  int dropped = 0;
  for_each_slot(used_, [&](int s) {
    const Connection* c = conn(s);
    if (!c || !dead(*c)) return;
    drop(s);
    ++dropped;
  });
  return dropped;
}

Connection* ChannelSet::conn(int slot) {
  if (slot < 0 || slot >= kMaxSlots || !(used_ >> slot & 1)) return nullptr;
  return slots_[static_cast<std::size_t>(slot)].conn;
}

const Connection* ChannelSet::conn(int slot) const { return const_cast<ChannelSet*>(this)->conn(slot); }

std::uint64_t ChannelSet::connected_mask() const {
  std::uint64_t m = 0;
  for_each_slot(used_, [&](int s) {
    const Connection* c = conn(s);
    if (c && c->connected()) m |= std::uint64_t{1} << s;
  });
  return m;
}

void ChannelSet::count_established() {
  for_each_slot(used_, [&](int s) {
    const Connection* c = conn(s);
    Slot& sl = slots_[static_cast<std::size_t>(s)];
    if (c && c->connected() && !sl.counted) {
      sl.counted = true;
      ++sessions_;
    }
  });
}

ConnStats ChannelSet::totals() const {
  ConnStats t = past_;
  double rate_sum = 0;  // packets per microsecond over the connected channels
  int connected = 0;
  for_each_slot(used_, [&](int s) {
    const Connection* c = conn(s);
    if (!c) return;
    const ConnStats st = c->stats();
    add_counters(t, st);
    if (!c->connected()) return;
    ++connected;
    t.cwnd += st.cwnd;
    t.flow_window += st.flow_window;
    t.rtt_us += st.rtt_us;
    t.rtt_var_us += st.rtt_var_us;
    t.capacity_pps = std::max(t.capacity_pps, st.capacity_pps);  // each channel estimates the same link
    t.delivery_rate_pps += st.delivery_rate_pps;
    t.in_flight += st.in_flight;
    t.send_buffered += st.send_buffered;
    t.unsent += st.unsent;
    if (st.min_rtt_us > 0 && (t.min_rtt_us == 0 || st.min_rtt_us < t.min_rtt_us)) t.min_rtt_us = st.min_rtt_us;
    t.ssthresh += st.ssthresh;
    t.slow_start = t.slow_start && st.slow_start;
    if (st.period_us > 0) rate_sum += 1.0 / st.period_us;
  });
  if (connected > 0) {
    t.rtt_us /= connected;
    t.rtt_var_us /= connected;
  }
  t.period_us = rate_sum > 0 ? 1.0 / rate_sum : 0;
  return t;
}

}  // namespace ncgw::udt
