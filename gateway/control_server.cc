#include "gateway/control_server.h"

#include <spdlog/spdlog.h>

#include "gateway/privileges.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>

namespace ncgw::gateway {

namespace asio = boost::asio;
using asio::local::stream_protocol;

std::string control_socket_path(const config::GatewayConfig& cfg) {
  return cfg.control_socket.empty() ? config::default_control_socket(cfg.name) : cfg.control_socket;
}

namespace {

// True if a live server answers on `path`.
bool socket_is_live(asio::io_context& io, const std::string& path) {
  stream_protocol::socket probe(io);
  boost::system::error_code ec;
  probe.connect(stream_protocol::endpoint(path), ec);
  return !ec;
}

}  // namespace

ControlServer::ControlServer(asio::io_context& io, const config::GatewayConfig& cfg,
                             std::function<std::string()> status, std::chrono::milliseconds client_timeout)
    : path_(control_socket_path(cfg)), acceptor_(io), status_(std::move(status)), client_timeout_(client_timeout) {
  std::filesystem::create_directories(std::filesystem::path(path_).parent_path());
  if (std::filesystem::exists(path_)) {
    if (socket_is_live(io, path_)) {
      throw std::runtime_error("control socket " + path_ + " is in use: is gateway '" + cfg.name +
                               "' already running?");
    }
    std::filesystem::remove(path_);
  }
  acceptor_.open(stream_protocol());
  acceptor_.bind(stream_protocol::endpoint(path_));
  acceptor_.listen();
  if (::chmod(path_.c_str(), 0660) != 0) {
    throw std::runtime_error("chmod 0660 " + path_ + ": " + std::strerror(errno));
  }
  if (const auto group = control_group(); group && ::chown(path_.c_str(), -1, *group) != 0) {
    throw std::runtime_error("chown :ncgw " + path_ + ": " + std::strerror(errno));
  }
}

void ControlServer::hand_over(uid_t uid) {
  const std::filesystem::path dir = std::filesystem::path(path_).parent_path();
  if (dir != config::kControlSocketDir) return;
  if (::chown(dir.c_str(), uid, -1) != 0) {
    spdlog::warn("chown {} to uid {}: {}; the control socket will stay behind on exit", dir.string(), uid,
                 std::strerror(errno));
  }
}

ControlServer::~ControlServer() { stop(); }

void ControlServer::start() { accept(); }

void ControlServer::stop() {
  if (stopped_) return;
  stopped_ = true;
  boost::system::error_code ec;
  acceptor_.close(ec);
  std::error_code fs_ec;
  std::filesystem::remove(path_, fs_ec);
  if (fs_ec) spdlog::warn("cannot remove control socket {}: {}; the next start replaces it", path_, fs_ec.message());
}

void ControlServer::accept() {
  acceptor_.async_accept([this](boost::system::error_code ec, stream_protocol::socket s) {
    if (ec || stopped_) return;
    if (*clients_ < kMaxControlClients) serve(std::move(s));
    accept();
  });
}

namespace {

// One control connection: owned by its pending read or write handler, so it is freed (and its
// deadline cancelled) when the exchange ends or the event loop is torn down.
struct ControlClient {
  ControlClient(stream_protocol::socket s, std::chrono::milliseconds timeout, std::shared_ptr<int> count)
      : socket(std::move(s)), deadline(socket.get_executor(), timeout), clients(std::move(count)) {
    ++*clients;
  }
  ~ControlClient() { --*clients; }
  stream_protocol::socket socket;
  asio::steady_timer deadline;   // closes the socket, which ends whichever operation is pending
  asio::streambuf request{256};
  std::string reply;
  std::shared_ptr<int> clients;  // the server's count of connections being served
};

}  // namespace

void ControlServer::serve(stream_protocol::socket s) {
  auto client = std::make_shared<ControlClient>(std::move(s), client_timeout_, clients_);
  client->deadline.async_wait([weak = std::weak_ptr<ControlClient>(client)](boost::system::error_code ec) {
    boost::system::error_code ignored;
    if (auto c = weak.lock(); c && !ec) c->socket.close(ignored);
  });
  asio::async_read_until(client->socket, client->request, '\n', [this, client](boost::system::error_code ec, std::size_t) {
    if (ec) return;
    std::istream in(&client->request);
    std::string command;
    std::getline(in, command);
    client->reply = command == "status" ? status_() + "\n" : R"({"error":"unknown command"})" "\n";
    asio::async_write(client->socket, asio::buffer(client->reply), [client](boost::system::error_code, std::size_t) {});
  });
}

std::string control_request(const std::string& path, const std::string& command) {
  asio::io_context io;
  stream_protocol::socket s(io);
  boost::system::error_code ec;
  s.connect(stream_protocol::endpoint(path), ec);
  if (ec) throw std::runtime_error("cannot reach gateway at " + path + ": " + ec.message());
  asio::write(s, asio::buffer(command + "\n"));
  std::string reply;
  asio::read(s, asio::dynamic_buffer(reply), ec);
  if (ec && ec != asio::error::eof) throw std::runtime_error("reading " + path + ": " + ec.message());
  return reply;
}

}  // namespace ncgw::gateway
