// The gateway daemon: binds the TUN device, the UDP ports and one transport core per peer to a
// single-threaded Boost.Asio event loop, and serves status on a unix control socket.
#pragma once
#include "gateway/asio.h"

#include <chrono>
#include <memory>
#include <vector>

#include "config/config.h"
#include "gateway/control_server.h"
#include "crypto/session_counters.h"
#include "gateway/counters.h"
#include "gateway/forwarder.h"
#include "gateway/fudp/cfs.h"
#include "gateway/netlink_policy.h"
#include "gateway/route_table.h"
#include "gateway/socket_address.h"
#include "gateway/tun_coalesce.h"
#include "gateway/tun_device.h"
#include "gateway/tun_offload.h"
#include "gateway/udp_port.h"
#include "transports/common/core.h"

namespace ncgw::gateway {

class ControlServer;

// One configured peer at run time: its core, address, socket and timer.
struct PeerRuntime {
  const config::Peer* cfg;
  SocketAddress address;
  std::unique_ptr<transport::Core> core;
  UdpPort* port = nullptr;
  std::unique_ptr<boost::asio::steady_timer> timer;
  std::optional<transport::TimePoint> armed_deadline;
  PeerCounters counters;
  crypto::SessionCounters last_security;   // secure-layer counters at the last security log
  bool dirty = false;   // fed since the last flush
  std::unique_ptr<fudp::Cfs> fudp;                      // set when the peer's fudp.enabled
  std::unique_ptr<boost::asio::steady_timer> fudp_timer;  // fires at fudp->next_period()
};

// The running gateway. Construction builds cores, the TUN and sockets (throws on failure);
// run() serves until SIGINT/SIGTERM or stop().
class Gateway {
 public:
  // Builds every part from a validated config; throws std::exception with a clear message.
  Gateway(boost::asio::io_context& io, const config::GatewayConfig& cfg);
  ~Gateway();

  // Makes what stop() removes removable by `uid`, the account the daemon is about to drop to.
  void hand_over(uid_t uid) { control_->hand_over(uid); }
  // Starts reading the TUN and the sockets and serving the control socket.
  void start();
  // Closes sockets, removes routes and the TUN (as configured), logs final counters.
  void stop();
  // The status document served on the control socket (JSON text).
  std::string status_json() const;
  // The TUN MTU in effect.
  std::uint32_t tun_mtu() const { return tun_->mtu(); }

 private:
  transport::TimePoint now() const;
  void build_cores();
  void open_ports();
  void install_routes();
  void wait_tun();
  void wait_port(std::size_t port_index);
  void on_tun_readable();
  // One frame read from a TUN with offloads on: cut into packets (tun_offload.h), each routed;
  // returns how many packets it held (0 for a malformed frame, which is counted).
  std::size_t route_tun_frame(std::span<std::uint8_t> frame, transport::TimePoint t);
  void on_port_readable(UdpPort& port);
  void route_tun_packet(std::span<const std::uint8_t> packet, transport::TimePoint t);
  // Counts a failed TUN read and logs it with exponential backoff.
  void count_tun_read_error(int error);
  PeerRuntime* find_peer(const UdpPort& port, const SocketAddress& from);
  void service_dirty_peers(transport::TimePoint t);
  void service_peer(PeerRuntime& peer, transport::TimePoint t);
  void drain_deliveries(PeerRuntime& peer, transport::TimePoint t);
  // One delivered packet: to the TUN, into another peer's core, or answered with ICMP (forwarder.h).
  void deliver(PeerRuntime& from, std::span<std::uint8_t> packet, transport::TimePoint t);
  // Sends a packet the gateway forwards or originates into a peer's core.
  void send_to_peer(PeerRuntime& peer, std::span<const std::uint8_t> packet, transport::TimePoint t);
  // The core refused `packet` as larger than it carries: an ICMP Packet Too Big (IPv4 with DF, IPv6)
  // goes back toward the packet's source, so its path MTU discovery learns the tunnel's MTU.
  void answer_too_big(PeerRuntime& peer, std::span<const std::uint8_t> packet, transport::TimePoint t);
  // Writes a packet to the TUN (the kernel routes it), counting it or the error.
  void write_tun(std::span<const std::uint8_t> packet);
  // Writes a delivered packet to the TUN; with offloads on, TCP segments of one flow are merged
  // (tun_coalesce.h) and written by flush_tun() at the end of the delivery batch.
  void write_tun_data(std::span<const std::uint8_t> packet);
  // Writes the merged frame pending in the coalescer, if any.
  void flush_tun();
  void drain_transmits(PeerRuntime& peer, transport::TimePoint t);
  // FUDP at the tunnel entrance: accounts the packet; false if its UDP flow's bucket drops it.
  bool admit(PeerRuntime& peer, std::span<const std::uint8_t> packet, transport::TimePoint t);
  // Arms the peer's FUDP period timer; on expiry runs the period with the tunnel's rate estimate.
  void arm_fudp(PeerRuntime& peer);
  void arm_timer(PeerRuntime& peer);
  // After kSilentPeerWarning, logs once at warning level each peer that has not sent a datagram
  // (a peer that never answers: wrong endpoint, firewall, or both sides waiting for the other).
  void arm_silence_check();
  // Every few seconds, logs each secured peer's handshake failures and floods (security_log.h).
  void arm_security_log();
  std::uint32_t choose_mtu() const;

  boost::asio::io_context& io_;
  const config::GatewayConfig& cfg_;
  std::chrono::steady_clock::time_point epoch_;
  std::vector<PeerRuntime> peers_;
  RouteTable routes_;
  Forwarder forwarder_{routes_, cfg_.tun.addresses};
  std::unique_ptr<TunDevice> tun_;
  std::unique_ptr<PolicyRouting> policy_;  // set when gateway.internal_interfaces is not empty
  std::unique_ptr<boost::asio::posix::stream_descriptor> tun_stream_;
  std::vector<std::unique_ptr<UdpPort>> ports_;
  std::vector<std::unique_ptr<boost::asio::posix::stream_descriptor>> port_waiters_;  // dup'ed fds
  std::unique_ptr<ControlServer> control_;
  std::unique_ptr<boost::asio::steady_timer> silence_timer_;
  std::unique_ptr<boost::asio::steady_timer> security_timer_;
  GatewayCounters counters_;
  std::vector<std::uint8_t> packet_buf_;
  std::vector<std::uint8_t> tun_frame_;        // one TUN read with offloads on (kMaxTunFrame bytes)
  std::unique_ptr<OffloadSplitter> splitter_;  // set when the TUN carries virtio_net_hdr
  std::unique_ptr<TunCoalescer> coalescer_;    // likewise: delivered TCP segments merged on the way out
  bool stopped_ = false;
};

}  // namespace ncgw::gateway
