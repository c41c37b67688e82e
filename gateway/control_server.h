// The local control socket (unix stream socket at a path, so it works from any namespace):
// a client writes one command line ("status"), the gateway answers with JSON and closes. The
// socket is mode 0660, group `ncgw` when that group exists; a client that has not finished its
// exchange within kControlClientTimeout is disconnected, and at most kMaxControlClients are served
// at once.
#pragma once
#include "gateway/asio.h"

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "config/config.h"

namespace ncgw::gateway {

// How long a control client may take to send its command and read the answer.
inline constexpr std::chrono::seconds kControlClientTimeout{5};
// Control connections served at once; more are closed on accept.
inline constexpr int kMaxControlClients = 16;

// Default control socket path of a gateway: /run/ncgw/<name>.sock.
std::string control_socket_path(const config::GatewayConfig& cfg);

// Serves status requests on the control socket.
class ControlServer {
 public:
  // Binds the socket (creating its directory, replacing a stale file); throws if another live
  // gateway already answers on it.
  // `client_timeout` is for tests.
  ControlServer(boost::asio::io_context& io, const config::GatewayConfig& cfg, std::function<std::string()> status,
                std::chrono::milliseconds client_timeout = kControlClientTimeout);
  ~ControlServer();
  // Starts accepting connections.
  void start();
  // Lets `uid` (the account the daemon drops to) remove the socket file on exit: the default
  // directory /run/ncgw becomes that account's; a custom directory is left as it is.
  void hand_over(uid_t uid);
  // Stops accepting and removes the socket file (a file that cannot be removed is logged; the next
  // start replaces it).
  void stop();
  const std::string& path() const { return path_; }

 private:
  void accept();
  void serve(boost::asio::local::stream_protocol::socket s);

  std::string path_;
  boost::asio::local::stream_protocol::acceptor acceptor_;
  std::function<std::string()> status_;
  std::chrono::milliseconds client_timeout_;
  std::shared_ptr<int> clients_ = std::make_shared<int>(0);   // connections being served
  bool stopped_ = false;
};

// Connects to a control socket, sends `command`, returns the reply; throws std::runtime_error.
std::string control_request(const std::string& path, const std::string& command);

}  // namespace ncgw::gateway
