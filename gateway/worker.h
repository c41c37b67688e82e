// One event loop of the gateway daemon: a data path over the peers it serves, the TUN queue it
// reads, the UDP sockets of those peers and their timers, bound to one Boost.Asio io_context. A
// gateway runs `gateway.workers` of them (gateway.h); with one, it is the whole daemon's loop.
#pragma once
#include "gateway/asio.h"

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "config/config.h"
#include "gateway/datapath.h"
#include "gateway/handoff.h"
#include "gateway/status_json.h"
#include "gateway/udp_port.h"

namespace ncgw::gateway {

// Which worker serves each peer, and this worker's number.
struct WorkerPlacement {
  std::size_t index = 0;                    // this worker
  std::size_t workers = 1;                  // how many the gateway runs
  std::vector<std::size_t> worker_of_peer;  // index-aligned with the configuration's peers
};

// A worker: constructed on the gateway's thread, then run on its own (the io_context's) thread.
// Everything but construction, attach() and the status calls runs on that thread.
class Worker final : private DeadlineListener, private PeerHandoff {
 public:
  // Builds the cores of the peers `placement` gives this worker (keys index-aligned with
  // cfg.peers; the others' entries are ignored) and opens their UDP sockets. `mesh` is null with
  // one worker. Throws std::exception with a clear message.
  Worker(boost::asio::io_context& io, const config::GatewayConfig& cfg, std::vector<std::optional<PeerKeys>> keys,
         WorkerPlacement placement, HandoffMesh* mesh, std::chrono::steady_clock::time_point epoch);
  ~Worker() override;
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Binds the TUN queue frames are written to and, when `reads`, read from (descriptor `tun_fd`).
  void attach(TunIo& tun, int tun_fd, bool reads);
  // Starts waiting for the TUN, the sockets, handed-over packets and the timers.
  void start();
  // Stops every wait and timer (on the worker's thread, or after it ended); idempotent.
  void halt();
  // Closes the sockets (after halt(), once the thread has ended).
  void release() { ports_.clear(); }

  // Adds this worker's part to a status document: its counters to `counters`, its peers'
  // counters to `peer_counters` (index-aligned with peers), its served peers to `peers` and
  // its ports. Called while the worker is paused or not running.
  void add_status(GatewayCounters& counters, std::vector<PeerCounters>& peer_counters,
                  std::vector<PeerStatusInput>& peers, std::vector<PortStatusInput>& ports) const;
  // The data path (the peers' cores, for logs at shutdown).
  const Datapath& datapath() const { return datapath_; }

 private:
  transport::TimePoint now() const;
  // `t` on the steady clock, for timers.
  std::chrono::steady_clock::time_point steady(transport::TimePoint t) const;
  // Opens the UDP sockets: with one worker one per transport port, shared by its peers; with
  // several a connected one per served peer, and on worker 0 an unconnected one per transport
  // port for datagrams from unknown senders. Returns each peer's port (null: not served here).
  std::vector<DatagramPort*> open_ports();
  // One unconnected socket per transport port in use by `peers` (index-aligned with the config).
  std::vector<DatagramPort*> open_shared_ports(const std::vector<bool>& peers, bool reuse_address);
  void wait_tun();
  void wait_port(std::size_t port_index);
  void wait_handoff();
  // Takes what the other workers handed over (a bounded amount per wake-up).
  void on_handoff();
  // DeadlineListener: (re)arms peer `index`'s timer.
  void deadline_changed(std::size_t index, std::optional<transport::TimePoint> deadline) override;
  // PeerHandoff: into the channel toward the worker serving `peer`.
  bool hand_over(std::size_t peer, std::span<const std::uint8_t> packet) override;
  void flush() override;
  // Arms the peer's FUDP period timer; on expiry runs the period.
  void arm_fudp(std::size_t index);
  // After kSilentPeerWarning, logs once at warning level each served peer that has not sent a
  // datagram (a peer that never answers: wrong endpoint, firewall, or both sides waiting).
  void arm_silence_check();
  // Every few seconds, logs each secured peer's handshake failures and floods (security_log.h).
  void arm_security_log();

  boost::asio::io_context& io_;
  const config::GatewayConfig& cfg_;
  WorkerPlacement placement_;
  HandoffMesh* mesh_;
  std::chrono::steady_clock::time_point epoch_;
  Datapath datapath_;
  std::vector<std::unique_ptr<UdpPort>> ports_;
  std::vector<DatagramPort*> port_of_peer_;
  std::vector<bool> wake_pending_;          // index-aligned with workers: handed packets since flush()
  TunIo* tun_ = nullptr;
  int tun_fd_ = -1;
  bool reads_tun_ = false;
  std::vector<std::unique_ptr<boost::asio::steady_timer>> peer_timers_;   // index-aligned with peers
  std::vector<std::optional<transport::TimePoint>> armed_fire_;          // when each peer timer fires, if armed
  std::vector<std::unique_ptr<boost::asio::steady_timer>> fudp_timers_;   // null where fudp is off or not served
  std::unique_ptr<boost::asio::posix::stream_descriptor> tun_stream_;
  std::vector<std::unique_ptr<boost::asio::posix::stream_descriptor>> port_waiters_;  // dup'ed fds
  std::unique_ptr<boost::asio::posix::stream_descriptor> handoff_stream_;             // the mesh's eventfd
  std::unique_ptr<boost::asio::steady_timer> silence_timer_;
  std::unique_ptr<boost::asio::steady_timer> security_timer_;
  bool halted_ = false;
};

// Each configured peer's worker: `workers` loops, peers dealt round-robin.
WorkerPlacement place_peers(std::size_t index, std::size_t workers, std::size_t peers);

// The workers a gateway runs: gateway.workers, or with `auto` one per peer and at most one per
// core this process may run on; never more than the peers, never fewer than one.
std::size_t worker_count(const config::GatewayConfig& cfg);

}  // namespace ncgw::gateway
