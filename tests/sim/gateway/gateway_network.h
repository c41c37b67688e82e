// Whole gateway data paths (gateway::Datapath, as the daemon runs it: route table, transport
// cores, secure layer, forwarding, ICMP answers) on in-memory TUNs and ports, joined by simulated
// one-way links, in virtual time and without root. Nothing reads a clock or the OS's randomness:
// the cores get seeded random bytes, so a run is a pure function of its seed.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/config.h"
#include "gateway/datapath.h"
#include "tests/sim/common/link.h"
#include "tests/sim/gateway/memory_io.h"

namespace ncgw::sim {

// One simulated gateway: its configuration, TUN, ports (one per listen port in use, as the daemon
// opens them) and data path.
struct SimGateway : gateway::DeadlineListener {
  config::GatewayConfig cfg;
  config::IpAddress underlay;                      // the address its peers know it by
  std::unique_ptr<MemoryTun> tun;
  std::vector<std::unique_ptr<MemoryPort>> ports;
  std::unique_ptr<gateway::Datapath> datapath;
  std::vector<std::optional<TimePoint>> deadlines;  // per peer, as the data path last asked
  void deadline_changed(std::size_t peer, std::optional<TimePoint> deadline) override { deadlines[peer] = deadline; }
};

// Gateways, the links between them, and packets scheduled to enter their TUNs.
class GatewayNetwork {
 public:
  // Prints the seed; link element and core seeds derive from it.
  explicit GatewayNetwork(std::uint64_t seed);

  // Adds a gateway from YAML text (must load: the error fails the test) reachable at `underlay`;
  // `keys` index-aligned with its peers (secured ones need theirs); `vnet`: its TUN carries
  // virtio_net_hdr as with offloads on. Returns its index.
  std::size_t add_gateway(const std::string& yaml, const std::string& underlay,
                          std::vector<std::optional<gateway::PeerKeys>> keys = {}, bool vnet = false);
  // The link that carries datagrams from gateway `from` to gateway `to` (made on first use, empty:
  // no delay, no loss). Each datagram on it carries two extra leading bytes, the sending and the receiving port's index.
  Link& link(std::size_t from, std::size_t to);
  // Serves every gateway once at the current time (the daemon's start).
  void start();
  // `packet` enters gateway `g`'s TUN at `at` (as if the kernel routed it there).
  void inject_at(std::size_t g, TimePoint at, std::vector<std::uint8_t> packet);
  // A datagram from `from` reaches gateway `g`'s first port at `at` (a forged or foreign sender).
  void datagram_at(std::size_t g, TimePoint at, std::vector<std::uint8_t> bytes, const gateway::SocketAddress& from);

  // Runs until `pred` holds (checked after every event) or virtual time reaches `deadline`.
  bool run_until(const std::function<bool()>& pred, TimePoint deadline);
  // Runs for `d` of virtual time.
  void run_for(Duration d) { run_until([] { return false; }, now_ + d); }

  // Gateway `g` (in the order added).
  SimGateway& gw(std::size_t g) { return *gateways_[g]; }
  // Current virtual time.
  TimePoint now() const { return now_; }
  // A seed for a link element, derived from the network's seed.
  std::uint64_t seed_for(std::uint64_t salt) const;
  // Datagrams sent to an address no gateway has.
  std::uint64_t undeliverable() const { return undeliverable_; }

 private:
  struct Scheduled {
    TimePoint at;
    std::size_t gateway;
    std::vector<std::uint8_t> bytes;
    std::optional<gateway::SocketAddress> from;   // set: a datagram, else a TUN packet
  };
  // The earliest pending event, if any.
  std::optional<TimePoint> next_event() const;
  // Handles everything due at `t`: link arrivals, scheduled inputs, deadlines; then moves what
  // the ports sent onto the links.
  void step(TimePoint t);
  // Datagrams the links deliver by `t` into the receiving ports, then each port's batch read.
  void deliver_arrivals(TimePoint t);
  // Scheduled TUN packets and datagrams due by `t`.
  void run_scheduled(TimePoint t);
  // Core deadlines due by `t`.
  void run_deadlines(TimePoint t);
  // What the ports sent, onto the links (or counted as undeliverable).
  void collect_sent(TimePoint t);
  // The gateway and port index bound to `to`, if any.
  std::optional<std::pair<std::size_t, std::size_t>> find_port(const gateway::SocketAddress& to) const;

  std::uint64_t seed_;
  TimePoint now_{};
  std::vector<std::unique_ptr<SimGateway>> gateways_;
  std::map<std::pair<std::size_t, std::size_t>, Link> links_;
  std::vector<Scheduled> scheduled_;   // kept sorted by time, stable
  std::uint64_t undeliverable_ = 0;
};

// An IPv4/UDP packet of `size` bytes from `src` to `dst` (dotted quads) whose payload starts with
// `seq` (8 bytes, big-endian), with a valid header checksum.
std::vector<std::uint8_t> inner_udp(const std::string& src, const std::string& dst, std::uint64_t seq,
                                    std::size_t size, std::uint8_t ttl = 64);
// The sequence number inner_udp() put in `packet`, if it is such a packet.
std::optional<std::uint64_t> inner_seq(std::span<const std::uint8_t> packet);

}  // namespace ncgw::sim
