// The gateway daemon: binds the data path (one transport core per peer, routing, forwarding) to the
// TUN device, the UDP ports and Boost.Asio event loops (one per worker, worker.h), and serves
// status on a unix control socket.
#pragma once
#include "gateway/asio.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "config/config.h"
#include "gateway/control_server.h"
#include "gateway/handoff.h"
#include "gateway/netlink_policy.h"
#include "gateway/tun_device.h"
#include "gateway/worker.h"

namespace ncgw::gateway {

class ControlServer;

// The running gateway: its workers (worker 0 on the caller's io_context, the others each on a
// thread of its own), the TUN device with a queue per worker, the routes and the control socket.
// Construction builds cores, the TUN and sockets (throws on failure); it serves from start()
// until stop().
class Gateway final {
 public:
  // Builds every part from a validated config; throws std::exception with a clear message.
  Gateway(boost::asio::io_context& io, const config::GatewayConfig& cfg);
  ~Gateway();

  // Makes what stop() removes removable by `uid`, the account the daemon is about to drop to.
  void hand_over(uid_t uid) { control_->hand_over(uid); }
  // Starts reading the TUN and the sockets and serving the control socket; starts the threads of
  // workers 1 and up.
  void start();
  // Stops and joins the workers, removes routes and the TUN (as configured), logs final counters.
  void stop();
  // The status document served on the control socket (JSON text). With several workers they
  // are paused while it is read.
  std::string status_json() const;
  // The TUN MTU in effect.
  std::uint32_t tun_mtu() const { return tun_->mtu(); }
  // How many workers run.
  std::size_t workers() const { return workers_.size(); }

 private:
  void install_routes();
  std::uint32_t choose_mtu() const;
  // The status document, read while no other worker runs.
  std::string render_status() const;
  // Runs worker `w`'s loop on its thread; an exception there shuts the daemon down.
  void run_worker(std::size_t w);

  boost::asio::io_context& io_;
  const config::GatewayConfig& cfg_;
  std::chrono::steady_clock::time_point epoch_;
  std::unique_ptr<HandoffMesh> mesh_;                          // set with several workers
  std::vector<std::unique_ptr<boost::asio::io_context>> ios_;  // of workers 1 and up (index w - 1)
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<std::thread> threads_;                           // of workers 1 and up
  std::unique_ptr<std::atomic<bool>[]> running_;               // per worker: its thread is in its loop
  std::unique_ptr<TunDevice> tun_;
  std::unique_ptr<PolicyRouting> policy_;  // set when gateway.internal_interfaces is not empty
  std::unique_ptr<ControlServer> control_;
  bool stopped_ = false;
};

}  // namespace ncgw::gateway
