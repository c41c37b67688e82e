// The control socket over a real unix socket in a temporary directory: status is answered, the
// socket has mode 0660, a client that sends nothing is disconnected after the client timeout, a
// client beyond kMaxControlClients is closed at once, and stop() removes the file.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <thread>
#include <vector>

#include "gateway/control_server.h"

namespace ncgw::gateway {
namespace {

namespace asio = boost::asio;
using asio::local::stream_protocol;

// A control server on a socket in a fresh directory, answering "status" with {"ok":1}.
struct ServerFixture : testing::Test {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("ncgw-ctl-" + std::to_string(::getpid()));
  asio::io_context io;
  config::GatewayConfig cfg;
  std::unique_ptr<ControlServer> server;

  void SetUp() override {
    std::filesystem::remove_all(dir);
    cfg.name = "t";
    cfg.control_socket = (dir / "t.sock").string();
    server = std::make_unique<ControlServer>(io, cfg, [] { return std::string(R"({"ok":1})"); },
                                             std::chrono::seconds(2));
    server->start();
  }
  void TearDown() override {
    server.reset();
    std::filesystem::remove_all(dir);
  }
  // A client socket connected to the server.
  std::unique_ptr<stream_protocol::socket> connect() {
    auto s = std::make_unique<stream_protocol::socket>(io);
    s->connect(stream_protocol::endpoint(cfg.control_socket));
    return s;
  }
};

TEST_F(ServerFixture, AnswersStatusAndHasMode0660) {
  struct stat st {};
  ASSERT_EQ(::stat(cfg.control_socket.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0660u);
  std::string reply;
  std::atomic<bool> done = false;
  std::thread client([&] {
    reply = control_request(cfg.control_socket, "status");
    done = true;
  });
  while (!done && io.run_one_for(std::chrono::milliseconds(100)) >= 0) {
  }
  client.join();
  EXPECT_EQ(reply, "{\"ok\":1}\n");
  server->stop();
  EXPECT_FALSE(std::filesystem::exists(cfg.control_socket));
}

TEST_F(ServerFixture, SilentClientIsDisconnected) {
  auto silent = connect();
  bool closed = false;
  std::array<char, 16> buf{};
  silent->async_read_some(asio::buffer(buf), [&](boost::system::error_code ec, std::size_t) {
    closed = ec == asio::error::eof;
  });
  // Runs until the read ends, which only the server's deadline can cause (bounded at 20 s).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!closed && std::chrono::steady_clock::now() < give_up) io.run_one_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(closed);
}

TEST_F(ServerFixture, ClientsBeyondTheLimitAreClosed) {
  std::vector<std::unique_ptr<stream_protocol::socket>> held;
  for (int i = 0; i < kMaxControlClients; ++i) held.push_back(connect());
  io.poll();   // the server accepts the held clients
  while (io.poll_one() > 0) {
  }
  auto extra = connect();
  asio::write(*extra, asio::buffer(std::string("status\n")));
  bool closed = false;
  std::array<char, 16> buf{};
  extra->async_read_some(asio::buffer(buf), [&](boost::system::error_code ec, std::size_t n) {
    // Closed unserved (reset: it had sent a command nobody read); served, it would read the answer.
    closed = (ec == asio::error::eof || ec == asio::error::connection_reset) && n == 0;
    held.clear();
  });
  // The extra client is closed on accept, well before the held ones time out (2 s).
  while (!closed && io.run_one_for(std::chrono::seconds(5)) > 0) {
  }
  EXPECT_TRUE(closed);
}

}  // namespace
}  // namespace ncgw::gateway
