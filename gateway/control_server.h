// The local control socket (unix stream socket at a path, so it works from any namespace):
// a client writes one command line ("status"), the gateway answers with JSON and closes.
#pragma once
#include "gateway/asio.h"

#include <functional>
#include <string>

#include "config/config.h"

namespace ncgw::gateway {

// Default control socket path of a gateway: /run/ncgw/<name>.sock.
std::string control_socket_path(const config::GatewayConfig& cfg);

// Serves status requests on the control socket.
class ControlServer {
 public:
  // Binds the socket (creating its directory, replacing a stale file); throws if another live
  // gateway already answers on it.
  ControlServer(boost::asio::io_context& io, const config::GatewayConfig& cfg,
                std::function<std::string()> status);
  ~ControlServer();
  // Starts accepting connections.
  void start();
  // Stops accepting and removes the socket file.
  void stop();
  const std::string& path() const { return path_; }

 private:
  void accept();
  void serve(std::shared_ptr<boost::asio::local::stream_protocol::socket> s);

  std::string path_;
  boost::asio::local::stream_protocol::acceptor acceptor_;
  std::function<std::string()> status_;
  bool stopped_ = false;
};

// Connects to a control socket, sends `command`, returns the reply; throws std::runtime_error.
std::string control_request(const std::string& path, const std::string& command);

}  // namespace ncgw::gateway
