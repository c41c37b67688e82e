#include "gateway/control_server.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <memory>
#include <stdexcept>

namespace ncgw::gateway {

namespace asio = boost::asio;
using asio::local::stream_protocol;

std::string control_socket_path(const config::GatewayConfig& cfg) {
  return cfg.control_socket.empty() ? "/run/ncgw/" + cfg.name + ".sock" : cfg.control_socket;
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
                             std::function<std::string()> status)
    : path_(control_socket_path(cfg)), acceptor_(io), status_(std::move(status)) {
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
}

void ControlServer::accept() {
  acceptor_.async_accept([this](boost::system::error_code ec, stream_protocol::socket s) {
    if (ec || stopped_) return;
    serve(std::make_shared<stream_protocol::socket>(std::move(s)));
    accept();
  });
}

void ControlServer::serve(std::shared_ptr<stream_protocol::socket> s) {
  auto request = std::make_shared<asio::streambuf>(256);
  asio::async_read_until(*s, *request, '\n', [this, s, request](boost::system::error_code ec, std::size_t) {
    if (ec) return;
    std::istream in(request.get());
    std::string command;
    std::getline(in, command);
    auto reply = std::make_shared<std::string>(
        command == "status" ? status_() + "\n" : R"({"error":"unknown command"})" "\n");
    asio::async_write(*s, asio::buffer(*reply), [s, reply](boost::system::error_code, std::size_t) {});
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
