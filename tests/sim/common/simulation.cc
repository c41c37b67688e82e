#include "tests/sim/common/simulation.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "transports/common/rng.h"

namespace ncgw::sim {
namespace {

constexpr std::size_t kMaxDatagram = 65536;
constexpr std::uint64_t kMaxEventsAtOneTime = 1000000;

// Earlier of an optional and a candidate.
void take_min(std::optional<TimePoint>& acc, std::optional<TimePoint> t) {
  if (t && (!acc || *t < *acc)) acc = t;
}

}  // namespace

Simulation::Simulation(std::uint64_t seed) : seed_(seed), buf_(kMaxDatagram) {
  std::printf("[sim] seed=%llu\n", static_cast<unsigned long long>(seed));
  std::fflush(stdout);
}

std::uint64_t Simulation::seed_for(std::uint64_t salt) const {
  std::uint64_t s = seed_ ^ (salt * 0x9E3779B97F4A7C15ULL);
  return transport::splitmix64(s);
}

void Simulation::set_core(Side s, std::unique_ptr<transport::Core> core) { ep(s).core = std::move(core); }

void Simulation::set_source(Side s, std::unique_ptr<Source> source) { ep(s).source = std::move(source); }

void Simulation::pump(Side s) {
  Endpoint& e = ep(s);
  if (!e.up || !e.core) return;
  if (e.source) e.source->pump(*e.core, now_);
  while (auto n = e.core->poll_transmit(buf_, now_)) {
    std::span<const std::uint8_t> d(buf_.data(), *n);
    ++e.datagrams_sent;
    if (hook_) hook_(s, d, now_);
    link_from(s).push(d, now_);
  }
  while (auto n = e.core->poll_deliver(buf_)) {
    if (e.on_deliver) e.on_deliver({buf_.data(), *n});
    else e.sink.receive({buf_.data(), *n}, now_);
  }
}

std::optional<TimePoint> Simulation::next_event() const {
  std::optional<TimePoint> t;
  for (int i = 0; i < 2; ++i) {
    take_min(t, links_[i].next_arrival());
    const Endpoint& e = eps_[i];
    if (!e.up || !e.core) continue;
    take_min(t, e.core->next_deadline());
    if (e.source) take_min(t, e.source->next_time());
  }
  return t;
}

void Simulation::process_due() {
  for (int i = 0; i < 2; ++i) {
    Endpoint& to = eps_[1 - i];
    while (auto p = links_[i].pop_arrival(now_)) {
      if (!to.up || !to.core) continue;
      ++to.datagrams_received;
      to.core->on_datagram(p->bytes, now_);
    }
  }
  for (auto& e : eps_) {
    if (!e.up || !e.core) continue;
    auto d = e.core->next_deadline();
    if (d && *d <= now_) e.core->on_timeout(now_);
  }
}

bool Simulation::run_until(const std::function<bool()>& pred, TimePoint deadline) {
  for (;;) {
    pump(Side::a);
    pump(Side::b);
    if (pred()) return true;
    auto t = next_event();
    if (!t || *t > deadline) {
      now_ = std::max(now_, deadline);
      return pred();
    }
    if (*t <= now_) {
      if (++stalled_ > kMaxEventsAtOneTime) throw std::runtime_error("simulation: no progress in time");
    } else {
      stalled_ = 0;
      now_ = *t;
    }
    ++events_;
    process_due();
  }
}

void Simulation::run_for(Duration d) {
  run_until([] { return false; }, now_ + d);
}

double goodput_bps(std::uint64_t bytes_before, TimePoint t_before, std::uint64_t bytes_after, TimePoint t_after) {
  const double secs = std::chrono::duration<double>(t_after - t_before).count();
  return secs > 0 ? (bytes_after - bytes_before) * 8.0 / secs : 0.0;
}

}  // namespace ncgw::sim
