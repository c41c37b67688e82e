// The gateway's data path, without I/O or clock of its own: packets read from the TUN go through
// the route table into peer cores; datagrams from the UDP ports go into the cores; what the cores
// deliver goes to the TUN, on into another peer (cascades), or is answered with ICMP. All I/O goes
// through the seams of packet_io.h and all time comes in as arguments. The daemon (gateway.h)
// binds it to the TUN device, UDP sockets and Boost.Asio timers; the simulator tier
// (tests/sim/gateway) to in-memory ones in virtual time.
#pragma once
#include <array>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "config/config.h"
#include "crypto/session_counters.h"
#include "gateway/core_factory.h"
#include "gateway/counters.h"
#include "gateway/forwarder.h"
#include "gateway/fudp/cfs.h"
#include "gateway/packet_io.h"
#include "gateway/peer_keys.h"
#include "gateway/route_table.h"
#include "gateway/socket_address.h"
#include "gateway/tun_coalesce.h"
#include "gateway/tun_offload.h"
#include "transports/common/core.h"

namespace ncgw::gateway {

// One configured peer at run time: its core, address, port and counters. With several workers
// every data path has an entry for every peer, but only the one serving it has its core and port.
struct PeerRuntime {
  const config::Peer* cfg;
  SocketAddress address;
  std::unique_ptr<transport::Core> core;   // null where another worker serves the peer
  DatagramPort* port = nullptr;
  std::optional<transport::TimePoint> armed_deadline;  // what the host was last told (DeadlineListener)
  PeerCounters counters;
  crypto::SessionCounters last_security;   // secure-layer counters at the last security log
  bool dirty = false;                      // fed since it was last served
  std::unique_ptr<fudp::Cfs> fudp;         // set when the peer's fudp.enabled
};

// Told when a peer's core wants on_timeout() at a new time (nullopt: no time).
class DeadlineListener {
 public:
  virtual ~DeadlineListener() = default;
  virtual void deadline_changed(std::size_t peer, std::optional<transport::TimePoint> deadline) = 0;
};

// Where packets go that are for peers another worker serves (gateway/worker.h binds it to the
// handoff channels of handoff.h).
class PeerHandoff {
 public:
  virtual ~PeerHandoff() = default;
  // Hands `packet` to the worker serving peer `peer`; false when its channel is full.
  virtual bool hand_over(std::size_t peer, std::span<const std::uint8_t> packet) = 0;
  // Wakes the workers handed packets since the last call.
  virtual void flush() = 0;
};

// Packets read from the TUN per on_tun_readable() before the host serves other sources (one
// read with offloads on may hold up to 45 of them).
inline constexpr std::size_t kTunPacketsPerWake = 256;

// The data path of one gateway. Single-threaded: the host calls it from one event loop.
class Datapath {
 public:
  // Builds one core per peer of `cfg` that `serves` names (keys index-aligned with cfg.peers;
  // `serves` empty: every peer) and the route table; throws std::exception with a clear message.
  // `cfg` must outlive the data path.
  Datapath(const config::GatewayConfig& cfg, std::vector<std::optional<PeerKeys>> keys, const CoreHost& host,
           transport::TimePoint now, std::vector<bool> serves = {});
  Datapath(const Datapath&) = delete;
  Datapath& operator=(const Datapath&) = delete;

  // Binds the I/O: the TUN side, each peer's port (index-aligned with peers()), and where new
  // deadlines go. Called once, before any event.
  // `port_of_peer` is null for the peers this data path does not serve; `handoff` takes their packets.
  void attach(TunIo& tun, const std::vector<DatagramPort*>& port_of_peer, DeadlineListener& deadlines,
              PeerHandoff* handoff = nullptr);
  // True if this data path serves peer `index` (holds its core).
  bool serves(std::size_t index) const { return peers_[index].core != nullptr; }
  // A packet another worker handed over for peer `index` (served here): into its core.
  void on_handed_over(std::size_t index, std::span<const std::uint8_t> packet, transport::TimePoint t);
  // Serves the peers fed since the last event and flushes the ports (after on_handed_over).
  void serve(transport::TimePoint t) { serve_dirty_peers(t); }
  // Serves every peer once (first transmissions, deadlines); the host calls it at start.
  void serve_all(transport::TimePoint t);
  // Reads up to kTunPacketsPerWake packets from the TUN, routes them, serves the peers fed.
  void on_tun_readable(transport::TimePoint t);
  // Reads what waits on `port` (up to four batches) into the cores of the peers that sent it and
  // serves them. A datagram's arrival time is its receive time minus `realtime_minus_core_ns`
  // (never later than `t`), or `t` when the port has none.
  void on_port_readable(DatagramPort& port, transport::TimePoint t, std::int64_t realtime_minus_core_ns);
  // Peer `index`'s deadline has passed.
  void on_timeout(std::size_t index, transport::TimePoint t);
  // Ends peer `index`'s FUDP period (its fudp is set) with the tunnel's own rate estimate.
  void on_fudp_period(std::size_t index, transport::TimePoint t);

  // The peers, index-aligned with the configuration's (status, logs, the host's timers).
  std::vector<PeerRuntime>& peers() { return peers_; }
  const std::vector<PeerRuntime>& peers() const { return peers_; }
  // What the data path did outside any one core.
  const GatewayCounters& counters() const { return counters_; }
  // Routes in the table (configured prefixes).
  std::size_t route_count() const { return routes_.size(); }

 private:
  // One frame read from a TUN with offloads on: cut into packets (tun_offload.h), each routed;
  // returns how many packets it held (0 for a malformed frame, which is counted).
  std::size_t route_tun_frame(std::span<std::uint8_t> frame, transport::TimePoint t);
  void route_tun_packet(std::span<const std::uint8_t> packet, transport::TimePoint t);
  // Counts a failed TUN read and logs it with exponential backoff.
  void count_tun_read_error(int error);
  PeerRuntime* find_peer(const DatagramPort& port, const SocketAddress& from);
  // Hands the datagrams collected in arrivals_ to their peer's core as one batch.
  void feed_arrivals();
  void serve_dirty_peers(transport::TimePoint t);
  void serve_peer(std::size_t index, transport::TimePoint t);
  void drain_deliveries(PeerRuntime& peer, transport::TimePoint t);
  // One delivered packet: to the TUN, into another peer's core, or answered with ICMP (forwarder.h).
  void deliver(PeerRuntime& from, std::span<std::uint8_t> packet, transport::TimePoint t);
  // Sends a packet the gateway forwards or originates into a peer's core.
  void send_to_peer(PeerRuntime& peer, std::span<const std::uint8_t> packet, transport::TimePoint t);
  // The core refused `packet` as larger than it carries: an ICMP Packet Too Big (IPv4 with DF, IPv6)
  // goes back toward the packet's source, so its path MTU discovery learns the tunnel's MTU.
  void answer_too_big(PeerRuntime& peer, std::span<const std::uint8_t> packet, transport::TimePoint t);
  // Writes a packet to the TUN, counting it or the error.
  void write_tun(std::span<const std::uint8_t> packet);
  // Writes a delivered packet to the TUN; with offloads on, TCP segments of one flow are merged
  // (tun_coalesce.h) and written by flush_tun() at the end of the delivery batch.
  void write_tun_data(std::span<const std::uint8_t> packet);
  // Writes the merged frame pending in the coalescer, if any.
  void flush_tun();
  void drain_transmits(PeerRuntime& peer, transport::TimePoint t);
  // FUDP at the tunnel entrance: accounts the packet; false if its UDP flow's bucket drops it.
  bool admit(PeerRuntime& peer, std::span<const std::uint8_t> packet, transport::TimePoint t);
  // Tells the listener about a changed deadline of peer `index`.
  void update_deadline(std::size_t index);

  const config::GatewayConfig& cfg_;
  std::vector<PeerRuntime> peers_;
  std::vector<DatagramPort*> ports_;   // distinct ports, for flushing after each event
  RouteTable routes_;
  Forwarder forwarder_{routes_, cfg_.tun.addresses};
  TunIo* tun_ = nullptr;
  DeadlineListener* deadlines_ = nullptr;
  PeerHandoff* handoff_ = nullptr;             // set with several workers
  GatewayCounters counters_;
  std::vector<std::uint8_t> packet_buf_;
  // Consecutive datagrams of one peer from a receive batch, fed to its core together.
  std::array<transport::Arrival, transport::kMaxBatch> arrivals_{};
  std::size_t arrivals_count_ = 0;
  PeerRuntime* arrivals_peer_ = nullptr;
  std::vector<std::uint8_t> tun_frame_;        // one TUN read with offloads on (kMaxTunFrame bytes)
  std::unique_ptr<OffloadSplitter> splitter_;  // set when the TUN carries virtio_net_hdr
  std::unique_ptr<TunCoalescer> coalescer_;    // likewise: delivered TCP segments merged on the way out
};

}  // namespace ncgw::gateway
