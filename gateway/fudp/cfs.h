// One common flow set (CFS) of paper 003: the flows entering one tunnel, which share its
// bottleneck. Accounts each packet to its flow, holds UDP flows to their allocations with token
// buckets, and once per period runs the FUDP algorithm (algorithm.h). Sans-I/O: time is an
// argument; the per-packet path does not allocate.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "gateway/fudp/algorithm.h"
#include "gateway/fudp/flow_table.h"
#include "gateway/fudp/settings.h"
#include "transports/common/time.h"

namespace ncgw::fudp {

// What the last period found and decided (for status and logs).
struct PeriodReport {
  std::uint64_t periods = 0;      // periods completed
  double seconds = 0;             // length of the last period
  std::size_t tcp_flows = 0, udp_flows = 0, other_flows = 0;  // active in the last period
  std::size_t thin_tcp_flows = 0;  // active TCP flows without bulk data (ACKs, control): like other
  double tcp_sample_Bps = 0;      // W(f_T): TCP total measured
  TcpPrediction prediction;       // W_{k+1}, D_{k+1}
  FairnessBand band;              // per TCP flow
  double udp_average_Bps = 0;     // W_a(f_U): mean UDP bandwidth that passed the buckets
  double available_Bps = 0;       // BW given to Algorithm 1
  bool tunnel_estimate = false;   // the tunnel gave a rate estimate (it caps eq. 3)
  bool reallocated = false;       // Algorithm 1 ran (UDP average outside the band)
  std::uint64_t reallocations = 0;
};

// Per-packet counters of the set.
struct CfsCounters {
  std::uint64_t packets = 0, bytes = 0;     // offered at the entrance
  std::uint64_t unparsed = 0;               // not IPv4/IPv6: passed, not accounted
  std::uint64_t dropped_packets = 0, dropped_bytes = 0;  // refused by a UDP flow's bucket
};

// One tunnel's flows and the FUDP control loop over them.
class Cfs {
 public:
  // The first period starts at `now`.
  Cfs(const Settings& settings, transport::TimePoint now);

  // Accounts a packet entering the tunnel at `now`; false if its UDP flow's bucket drops it.
  bool on_packet(std::span<const std::uint8_t> packet, transport::TimePoint now);
  // Ends the period at `now`: rates, expiry, eq. 1-3, band check and Algorithm 1.
  // `tunnel_Bps`: the tunnel's own estimate of what it carries (bytes/s of inner packets), if any.
  void on_period(transport::TimePoint now, std::optional<double> tunnel_Bps);
  // When on_period is due.
  transport::TimePoint next_period() const { return period_start_ + period_; }

  const FlowTable& table() const { return table_; }
  const PeriodReport& report() const { return report_; }
  const CfsCounters& counters() const { return counters_; }
  const Settings& settings() const { return settings_; }
  // Mean size of the packets offered in the last period (bytes; 0 if none).
  double mean_packet_bytes() const { return mean_packet_bytes_; }

 private:
  // Turns the period's byte counts into rates; counts active flows per class.
  void measure(transport::TimePoint now);
  // Runs Algorithm 1 over the active flows and re-arms the UDP buckets.
  void reallocate(double bw, transport::TimePoint now);
  // Removes every UDP limit (no TCP flow to be friendly to, and no known bottleneck rate).
  void lift_limits();
  // Sets a UDP flow's allocation and its bucket.
  void allocate(Flow& f, double allocation, transport::TimePoint now);
  // True for a TCP flow that carried bulk data this period (mean packet >= 256 bytes).
  static bool bulk_tcp(const Flow& f);
  // Zeroes the period counters of every flow.
  void start_period(transport::TimePoint now);

  Settings settings_;
  transport::Duration period_;
  transport::TimePoint period_start_;
  FlowTable table_;
  PeriodReport report_;
  CfsCounters counters_;
  double mean_packet_bytes_ = 0;
  std::vector<Demand> demands_;          // scratch for Algorithm 1, sized to the table
  std::vector<double> shares_;
  std::vector<std::uint32_t> order_;
  std::vector<Flow*> members_;
};

}  // namespace ncgw::fudp
