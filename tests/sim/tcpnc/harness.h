// Shared set-up of the TCP/NC simulator tests: two TcpncCores joined by a 10 Mbit/s, 20 ms RTT
// path (bottleneck queue sized R_max x CWND_max as paper 002 section 2.2 prescribes), a bulk
// source on side A and the checking sink on side B.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>

#include "coding/header.h"
#include "tests/sim/common/simulation.h"
#include "transports/tcpnc/tcpnc_core.h"

namespace ncgw::tcpnc::simtest {

using namespace std::chrono_literals;
using sim::Side;
using sim::Simulation;

// Path and traffic parameters of one scenario.
struct Scenario {
  double rate_bps = 10e6;            // bottleneck rate, both directions
  transport::Duration one_way = 10ms;  // propagation delay each way (RTT 20 ms)
  std::size_t packet_bytes = 1200;   // source (IP) packet size
  TcpncCoreSettings settings = default_settings();
  // Loss on the data direction (A -> B), added after the bottleneck; nullptr: none.
  std::function<void(Simulation&, sim::Link&)> data_loss;

  // Sim-test settings: NewReno with a 2% retransmission-round target (paper 002's TCP/NC), CWND_max 64 (paper 002 uses 63; the bottleneck queue is then
  // R_max x CWND_max = 128 packets), CWs up to 64 sources with up to 24 repairs (larger CWs are
  // what makes bursty loss affordable: see docs/results/tcpnc-sim.md); the rest are the defaults.
  static TcpncCoreSettings default_settings() {
    TcpncCoreSettings s;
    s.congestion_control = CcAlgorithm::kNewReno;  // paper 002's TCP/NC (bbr_test.cc covers the default)
    s.retransmission_target = 0.02;
    s.cwnd_max_packets = 64;
    s.n_max = 64;
    s.k_max = 24;
    return s;
  }
};

// Builds the simulation: cores, links, a bulk source of `limit` packets (0: endless) on A.
inline std::unique_ptr<Simulation> build(const Scenario& sc, std::uint64_t seed, std::uint64_t limit = 0) {
  auto sim = std::make_unique<Simulation>(seed);
  const std::size_t queue = effective_link_buffer(sc.settings);
  for (Side s : {Side::a, Side::b}) {
    sim->set_core(s, std::make_unique<TcpncCore>(sc.settings, sim->seed_for(s == Side::a ? 11 : 12)));
    sim::Link& l = sim->link_from(s);
    l.add<sim::Bottleneck>(sc.rate_bps, 28, queue);
    l.add<sim::Delay>(sc.one_way);
  }
  if (sc.data_loss) sc.data_loss(*sim, sim->link_from(Side::a));
  sim->set_source(Side::a, std::make_unique<sim::BulkSource>(sc.packet_bytes, 1, limit));
  return sim;
}

// Datagrams of one BDP on a path of `rate_bps` with `one_way` delay each way, for sources of
// `packet` bytes (TCP/NC data and coding headers and IPv4/UDP included).
inline std::size_t bdp_datagrams(double rate_bps, transport::Duration one_way, std::size_t packet) {
  const double datagram_bits = static_cast<double>(packet + kDataHeaderSize + kCodingOverhead + 28) * 8.0;
  return static_cast<std::size_t>(rate_bps * 2 * std::chrono::duration<double>(one_way).count() / datagram_bits);
}

// Two default cores (what a user gets) over a path of `rate_bps` and `one_way` delay each way with
// a one-BDP drop-tail bottleneck queue; loss `e` of mean burst `burst` (1: Bernoulli) after the
// bottleneck on A -> B; a bulk source of `packet`-byte packets on A. The bulk source ignores
// drops, so the entrance AQM drops some of what it accepted: B's sink allows gaps.
inline std::unique_ptr<Simulation> build_default_path(double rate_bps, transport::Duration one_way, std::size_t packet,
                                                      double e, double burst, std::uint64_t seed) {
  auto sim = std::make_unique<Simulation>(seed);
  const TcpncCoreSettings s;
  for (Side side : {Side::a, Side::b}) {
    sim->set_core(side, std::make_unique<TcpncCore>(s, sim->seed_for(side == Side::a ? 11 : 12)));
    sim::Link& l = sim->link_from(side);
    l.add<sim::Bottleneck>(rate_bps, 28, bdp_datagrams(rate_bps, one_way, packet));
    if (side == Side::a && e > 0) {
      if (burst <= 1.0) l.add<sim::BernoulliLoss>(e, sim->seed_for(21));
      else l.add_element(sim::GilbertElliottLoss::from_rate_and_burst(e, burst, sim->seed_for(21)));
    }
    l.add<sim::Delay>(one_way);
  }
  sim->set_source(Side::a, std::make_unique<sim::BulkSource>(packet, 1));
  sim->ep(Side::b).sink.set_allow_gaps(true);
  return sim;
}

// A named stat of a core (NaN if absent).
inline double stat(const transport::Core& core, const std::string& name) {
  for (const auto& e : core.stats())
    if (e.name == name) return e.value;
  return std::numeric_limits<double>::quiet_NaN();
}

// What a DATA datagram on the wire says (for exact loss patterns and rewriting).
struct DataInfo {
  std::uint64_t tx = 0;
  coding::CodingHeader coding;   // cw_id and base as 32-bit wire values
  std::size_t coding_offset = 0; // where the coding header starts
  std::span<const std::uint8_t> payload;
};

// Parses a TCP/NC DATA datagram, or nothing for any other datagram.
inline std::optional<DataInfo> data_info(std::span<const std::uint8_t> d) {
  const auto h = parse_common(d);
  if (!h || (h->type != PacketType::kData && h->type != PacketType::kDataAck)) return std::nullopt;
  if (h->type == PacketType::kDataAck) {
    const auto parts = split_data_ack(d);
    if (!parts) return std::nullopt;
    d = parts->data;
  }
  std::span<const std::uint8_t> coded;
  const auto dh = parse_data(d, coded);
  if (!dh) return std::nullopt;
  const auto pc = coding::parse_combination(coded);
  if (!pc) return std::nullopt;
  return DataInfo{dh->tx, pc->header, kDataHeaderSize, pc->payload};
}

// Result of a measured bulk run.
struct BulkResult {
  double goodput_bps = 0;     // sink bytes over the measurement interval
  std::uint64_t delivered = 0;
  std::uint64_t errors = 0;
  std::string first_error;
  double mean_delay_ms = 0, p99_delay_ms = 0;  // delivery delay (offer to delivery) while measured
};

// Runs `warmup` then measures the sink's goodput over `measure`.
inline BulkResult run_bulk(Simulation& sim, transport::Duration warmup, transport::Duration measure) {
  sim.run_for(warmup);
  sim::Sink& sink = sim.ep(Side::b).sink;
  sink.reset_delays();
  const auto b0 = sink.bytes();
  const auto t0 = sim.now();
  sim.run_for(measure);
  BulkResult r;
  r.goodput_bps = sim::goodput_bps(b0, t0, sink.bytes(), sim.now());
  r.delivered = sink.packets();
  r.errors = sink.errors();
  r.first_error = sink.first_error();
  r.mean_delay_ms = sink.mean_delay_ms();
  r.p99_delay_ms = sink.delay_quantile_ms(0.99);
  return r;
}

}  // namespace ncgw::tcpnc::simtest
