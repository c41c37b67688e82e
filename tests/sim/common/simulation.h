// Virtual-time simulation of two transport::Core endpoints joined by two one-way Links.
// The event queue is implicit and exact: the next event is the earliest of the links' next
// arrivals, the cores' deadlines and the sources' next offers; at each event the simulation feeds
// arrivals and timeouts, then pumps the sources and drains poll_transmit / poll_deliver.
// Nothing reads a clock: a run is a pure function of the seed.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "tests/sim/common/link.h"
#include "tests/sim/common/traffic.h"
#include "transports/common/core.h"

namespace ncgw::sim {

// The two ends of the simulated path.
enum class Side : std::uint8_t { a = 0, b = 1 };

// The other side.
constexpr Side peer_of(Side s) { return s == Side::a ? Side::b : Side::a; }

// One end: a core, an optional traffic source feeding it, and the sink of what it delivers.
struct Endpoint {
  std::unique_ptr<transport::Core> core;
  std::unique_ptr<Source> source;
  Sink sink;
  // Sees every delivered packet instead of the sink when set (tests that carry real IP packets).
  std::function<void(std::span<const std::uint8_t>)> on_deliver;
  bool up = true;                 // a down endpoint is not driven; datagrams to it are lost
  std::uint64_t datagrams_sent = 0;
  std::uint64_t datagrams_received = 0;
};

// Called for every datagram a core transmits (before it enters the link).
using TransmitHook = std::function<void(Side from, std::span<const std::uint8_t> bytes, TimePoint now)>;

// Two endpoints and the links between them, in virtual time starting at 0.
class Simulation {
 public:
  // Prints the seed (so every test log carries it); element seeds derive from it via seed_for().
  explicit Simulation(std::uint64_t seed);

  // Installs (or replaces, e.g. to model a restart) the core of one side.
  void set_core(Side s, std::unique_ptr<transport::Core> core);
  // Installs the traffic source of one side.
  void set_source(Side s, std::unique_ptr<Source> source);
  // Takes a side down (not driven, arrivals lost) or brings it back up.
  void set_up(Side s, bool up) { ep(s).up = up; }
  // Observes every transmitted datagram.
  void set_transmit_hook(TransmitHook hook) { hook_ = std::move(hook); }

  // The endpoint of a side.
  Endpoint& ep(Side s) { return eps_[static_cast<int>(s)]; }
  // The core of a side, cast to its concrete type.
  template <class T>
  T& core_as(Side s) { return static_cast<T&>(*ep(s).core); }
  // The link that carries datagrams sent by `from`.
  Link& link_from(Side from) { return links_[static_cast<int>(from)]; }
  // Current virtual time.
  TimePoint now() const { return now_; }
  // A fresh seed for a link element or core, derived from the simulation seed.
  std::uint64_t seed_for(std::uint64_t salt) const;
  // The simulation seed.
  std::uint64_t seed() const { return seed_; }

  // Runs until `pred` holds (checked after every event) or virtual time reaches `deadline`;
  // returns whether `pred` held.
  bool run_until(const std::function<bool()>& pred, TimePoint deadline);
  // Runs for `d` of virtual time.
  void run_for(Duration d);
  // Events processed so far.
  std::uint64_t events() const { return events_; }

 private:
  // Feeds sources, drains transmissions into the links and deliveries into the sinks.
  void pump(Side s);
  // Earliest pending event time, if any.
  std::optional<TimePoint> next_event() const;
  // Processes every arrival and timeout due at now_.
  void process_due();

  std::uint64_t seed_;
  TimePoint now_{};
  std::array<Endpoint, 2> eps_;
  std::array<Link, 2> links_;
  TransmitHook hook_;
  std::vector<std::uint8_t> buf_;
  std::uint64_t events_ = 0;
  std::uint64_t stalled_ = 0;   // consecutive events at one time point (guards a busy core)
};

// Goodput of a sink between two samples, in bits per second.
double goodput_bps(std::uint64_t bytes_before, TimePoint t_before, std::uint64_t bytes_after, TimePoint t_after);

}  // namespace ncgw::sim
