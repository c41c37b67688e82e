// The gateway daemon: binds the data path (one transport core per peer, routing, forwarding) to the
// TUN device, the UDP ports and a single-threaded Boost.Asio event loop, and serves status on a
// unix control socket.
#pragma once
#include "gateway/asio.h"

#include <chrono>
#include <memory>
#include <vector>

#include "config/config.h"
#include "gateway/control_server.h"
#include "gateway/datapath.h"
#include "gateway/netlink_policy.h"
#include "gateway/tun_device.h"
#include "gateway/udp_port.h"

namespace ncgw::gateway {

class ControlServer;

// The running gateway: the data path (datapath.h) bound to the TUN device, one UDP socket per
// transport and Boost.Asio timers. Construction builds cores, the TUN and sockets (throws on
// failure); it serves from start() until stop().
class Gateway final : private DeadlineListener {
 public:
  // Builds every part from a validated config; throws std::exception with a clear message.
  Gateway(boost::asio::io_context& io, const config::GatewayConfig& cfg);
  ~Gateway() override;

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
  // Opens one UDP port per transport in use; returns each peer's port (index-aligned).
  std::vector<DatagramPort*> open_ports();
  void install_routes();
  void wait_tun();
  void wait_port(std::size_t port_index);
  // DeadlineListener: (re)arms peer `index`'s timer.
  void deadline_changed(std::size_t index, std::optional<transport::TimePoint> deadline) override;
  // Arms the peer's FUDP period timer; on expiry runs the period.
  void arm_fudp(std::size_t index);
  // After kSilentPeerWarning, logs once at warning level each peer that has not sent a datagram
  // (a peer that never answers: wrong endpoint, firewall, or both sides waiting for the other).
  void arm_silence_check();
  // Every few seconds, logs each secured peer's handshake failures and floods (security_log.h).
  void arm_security_log();
  std::uint32_t choose_mtu() const;
  // `t` on the steady clock, for timers.
  std::chrono::steady_clock::time_point steady(transport::TimePoint t) const;

  boost::asio::io_context& io_;
  const config::GatewayConfig& cfg_;
  std::chrono::steady_clock::time_point epoch_;
  Datapath datapath_;
  std::vector<std::unique_ptr<boost::asio::steady_timer>> peer_timers_;   // index-aligned with peers
  std::vector<std::unique_ptr<boost::asio::steady_timer>> fudp_timers_;   // null where fudp is off
  std::unique_ptr<TunDevice> tun_;
  std::unique_ptr<PolicyRouting> policy_;  // set when gateway.internal_interfaces is not empty
  std::unique_ptr<boost::asio::posix::stream_descriptor> tun_stream_;
  std::vector<std::unique_ptr<UdpPort>> ports_;
  std::vector<std::unique_ptr<boost::asio::posix::stream_descriptor>> port_waiters_;  // dup'ed fds
  std::unique_ptr<ControlServer> control_;
  std::unique_ptr<boost::asio::steady_timer> silence_timer_;
  std::unique_ptr<boost::asio::steady_timer> security_timer_;
  bool stopped_ = false;
};

}  // namespace ncgw::gateway
