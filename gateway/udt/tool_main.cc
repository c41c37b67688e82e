// ncgw-udt: send a file or stdin over UDT, or receive to a file or stdout, in stream or message mode,
// as caller, listener or rendezvous. Interoperates with UDT4 4.11 (e.g. its sendfile/recvfile
// examples in stream mode). Operators use it to check a path.
#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "gateway/udt/udp_driver.h"

namespace {

using namespace ncgw::udt;

struct Options {
  std::string role = "caller";
  std::string peer;
  std::string local;
  std::string mode = "stream";
  std::string file;
  std::uint32_t mss = 1500;
  std::uint32_t message_size = 1400;
  std::uint64_t seed = 0;
  double timeout_s = 0;
  double linger_s = 3;  // sender: after everything is acknowledged, wait this long for the peer to close
  std::uint64_t expect_bytes = 0;  // receiver: done once this many bytes arrived (0: when the peer closes)
  bool quiet = false;
};

// Reads the input (file or stdin) and feeds the connection; true when all is acknowledged.
class Sender {
 public:
  explicit Sender(int fd, const Options& o) : fd_(fd), o_(o), buf_(1 << 16) {}
  bool step(Connection* c, TimePoint now) {
    for (int k = 0; k < 256 && !eof_; ++k) {
      if (len_ == off_) {
        const std::size_t want = o_.mode == "message" ? o_.message_size : buf_.size();
        const ssize_t n = ::read(fd_, buf_.data(), want);
        if (n == 0) { eof_ = true; break; }
        if (n < 0) { if (errno == EAGAIN || errno == EINTR) break; eof_ = true; error_ = true; break; }
        len_ = static_cast<std::size_t>(n);
        off_ = 0;
      }
      if (o_.mode == "message") {
        if (!c->send_message(std::span(buf_.data(), len_), now)) break;
        off_ = len_;
      } else {
        const std::size_t n = c->send_stream(std::span(buf_.data() + off_, len_ - off_), now);
        if (n == 0) break;
        off_ += n;
      }
      bytes_ += len_ == off_ ? len_ : 0;
    }
    return eof_ && len_ == off_ && c->send_idle();
  }
  std::uint64_t bytes() const { return bytes_; }
  bool error() const { return error_; }
  // All input read and handed to UDT.
  bool all_queued() const { return eof_ && len_ == off_; }
  // True when the sender would read more input now (its buffer is empty and input remains).
  bool wants_input() const { return !eof_ && len_ == off_; }

 private:
  int fd_;
  const Options& o_;
  std::vector<std::uint8_t> buf_;
  std::size_t len_ = 0, off_ = 0;
  std::uint64_t bytes_ = 0;
  bool eof_ = false, error_ = false;
};

// Drains the connection into the output (file or stdout); true when the peer closed and all is read.
class Receiver {
 public:
  explicit Receiver(int fd, const Options& o) : fd_(fd), o_(o), buf_(1 << 16) {}
  bool step(Connection* c) {
    for (;;) {
      std::size_t n = 0;
      if (o_.mode == "message") {
        const auto m = c->recv_message(buf_);
        if (!m) break;
        n = std::min(*m, buf_.size());
      } else {
        n = c->recv_stream(buf_);
        if (n == 0) break;
      }
      write_all(n);
    }
    return c->peer_closed() && !c->readable();
  }
  std::uint64_t bytes() const { return bytes_; }

 private:
  void write_all(std::size_t n) {
    std::size_t off = 0;
    while (off < n) {
      const ssize_t w = ::write(fd_, buf_.data() + off, n - off);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return;
      off += static_cast<std::size_t>(w);
    }
    bytes_ += n;
  }
  int fd_;
  const Options& o_;
  std::vector<std::uint8_t> buf_;
  std::uint64_t bytes_ = 0;
};

PeerAddress parse_or_die(const std::string& text, const char* what) {
  PeerAddress a;
  if (!PeerAddress::parse(text, a)) throw CLI::ValidationError(what, "expected IP:PORT, got '" + text + "'");
  return a;
}

int run(const Options& o, bool sending) {
  ConnectionSettings s;
  s.type = o.mode == "message" ? SocketType::dgram : SocketType::stream;
  s.mss = o.mss;
  const std::uint64_t seed = o.seed ? o.seed : static_cast<std::uint64_t>(
      std::chrono::steady_clock::now().time_since_epoch().count()) ^ static_cast<std::uint64_t>(getpid());
  Endpoint ep(seed);
  PeerAddress local;
  if (!o.local.empty()) {
    local = parse_or_die(o.local, "--local");
  } else {
    local = PeerAddress::v4(0, 0, 0, 0, 0);
    if (!o.peer.empty()) local.v6 = parse_or_die(o.peer, "--peer").v6;
  }
  UdpDriver drv(ep, local);
  if (!o.quiet) std::fprintf(stderr, "ncgw-udt: bound to port %u\n", drv.local_port());
  std::optional<std::int32_t> id;
  if (o.role == "listener") {
    ep.listen(s, 1);
  } else {
    const PeerAddress peer = parse_or_die(o.peer, "--peer");
    id = o.role == "rendezvous" ? ep.rendezvous(peer, s, UdpDriver::now()) : ep.connect(peer, s, UdpDriver::now());
  }
  const int fd = sending ? (o.file.empty() ? 0 : ::open(o.file.c_str(), O_RDONLY))
                         : (o.file.empty() ? 1 : ::open(o.file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644));
  if (fd < 0) { std::perror(o.file.c_str()); return 2; }
  if (sending && fd == 0) fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
  Sender snd(fd, o);
  Receiver rcv(fd, o);
  const auto t0 = std::chrono::steady_clock::now();
  std::string failure;
  const auto timeout = o.timeout_s > 0 ? std::chrono::nanoseconds(static_cast<std::int64_t>(o.timeout_s * 1e9))
                                       : std::chrono::nanoseconds(std::chrono::hours(24 * 365));
  std::optional<TimePoint> sent_all_at, got_all_at;
  const auto linger = std::chrono::nanoseconds(static_cast<std::int64_t>(o.linger_s * 1e9));
  const bool ok = drv.run([&](TimePoint now) {
    if (!id) {
      if ((id = ep.accept())) ep.stop_listening();
      return false;
    }
    Connection* c = ep.find(*id);
    if (c->state() == ConnState::connecting) return false;
    // UDT4 sends its shutdown once, unacknowledged: a receiver that knows the length is done when
    // it has read it, however the connection ends afterwards (closed, or broken by a lost shutdown);
    // it lingers so that its last ACKs reach the sender before its own shutdown does.
    if (!sending && o.expect_bytes > 0) {
      const bool ended = rcv.step(c) || c->state() != ConnState::connected;
      if (rcv.bytes() < o.expect_bytes) {
        if (ended) failure = c->peer_closed() ? "closed by the peer before the end" : to_string(c->state());
        return ended;
      }
      if (!got_all_at) got_all_at = now;
      return ended || now - *got_all_at >= linger;
    }
    if (c->state() != ConnState::connected && !(c->peer_closed() && !sending)) {
      // a receiver that got everything may close before its last ACK reaches us
      const bool receiver_done = sending && c->peer_closed() && snd.all_queued() && c->all_sent();
      if (!receiver_done) failure = c->peer_closed() ? "closed by the peer before the end" : to_string(c->state());
      return true;
    }
    if (!sending) return rcv.step(c);
    if (!sent_all_at) {
      if (!snd.step(c, now)) return false;
      sent_all_at = now;
    }
    // Linger: a libudt receiver reports a broken connection to an application that has not yet
    // read everything when the sender closes, so give the peer time to read and close first.
    return c->peer_closed() || now - *sent_all_at >= linger;
  }, timeout, [&] { return sending && fd == 0 && snd.wants_input() ? 0 : -1; });
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Connection* c = id ? ep.find(*id) : nullptr;
  if (c) {
    const ConnStats st = c->stats();
    c->close(UdpDriver::now());
    drv.run([](TimePoint) { return true; }, std::chrono::milliseconds(100));
    const std::uint64_t bytes = sending ? snd.bytes() : rcv.bytes();
    if (!o.quiet) {
      std::fprintf(stderr, "ncgw-udt: %llu bytes in %.3f s (%.1f Mbit/s), rtt %.2f ms, sent %llu, retransmitted %llu, "
                   "received %llu, loss %llu\n", static_cast<unsigned long long>(bytes), secs, bytes * 8 / secs / 1e6,
                   st.rtt_us / 1000.0, static_cast<unsigned long long>(st.sent),
                   static_cast<unsigned long long>(st.retransmitted), static_cast<unsigned long long>(st.received),
                   static_cast<unsigned long long>(st.rcv_loss));
    }
  }
  if (!ok) { std::fprintf(stderr, "ncgw-udt: timed out\n"); return 1; }
  if (!failure.empty()) { std::fprintf(stderr, "ncgw-udt: connection %s\n", failure.c_str()); return 1; }
  if (snd.error()) { std::fprintf(stderr, "ncgw-udt: read error\n"); return 1; }
  return 0;
}

void add_common(CLI::App* cmd, Options& o) {
  cmd->add_option("--role", o.role, "caller, listener or rendezvous")
      ->check(CLI::IsMember({"caller", "listener", "rendezvous"}));
  cmd->add_option("--peer", o.peer, "peer IP:PORT (caller, rendezvous)");
  cmd->add_option("--local", o.local, "local IP:PORT to bind (listener, rendezvous)");
  cmd->add_option("--mode", o.mode, "stream or message")->check(CLI::IsMember({"stream", "message"}));
  cmd->add_option("--mss", o.mss, "UDT MSS in bytes, counting IP and UDP headers")->check(CLI::Range(76, 65535));
  cmd->add_option("--message-size", o.message_size, "message mode: bytes read per message")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--seed", o.seed, "seed for socket ids and sequence numbers (0: from the clock)");
  cmd->add_option("--timeout", o.timeout_s, "give up after this many seconds (0: never)");
  cmd->add_option("--linger", o.linger_s,
                  "seconds to wait for the peer to close after everything was acknowledged (sender) or received "
                  "(receiver with --bytes); default 3");
  cmd->add_flag("-q,--quiet", o.quiet, "no statistics on stderr");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ncgw-udt: move a file or a pipe over UDT (UDT4 4.11 wire format)"};
  app.require_subcommand(1);
  Options o;
  auto* send = app.add_subcommand("udt-send", "send a file (--file) or stdin");
  send->alias("send");
  add_common(send, o);
  send->add_option("--file", o.file, "file to send (default: stdin)");
  auto* recv = app.add_subcommand("udt-recv", "receive to a file (--file) or stdout");
  recv->alias("recv");
  add_common(recv, o);
  recv->add_option("--file", o.file, "file to write (default: stdout)");
  recv->add_option("--bytes", o.expect_bytes,
                   "stop with success once this many bytes arrived (default: read until the peer closes)");
  CLI11_PARSE(app, argc, argv);
  if (o.role != "listener" && o.peer.empty()) {
    std::fprintf(stderr, "ncgw-udt: --peer is required for --role %s\n", o.role.c_str());
    return 2;
  }
  if (o.role != "caller" && o.local.empty()) {
    std::fprintf(stderr, "ncgw-udt: --local is required for --role %s\n", o.role.c_str());
    return 2;
  }
  try {
    return run(o, send->parsed());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ncgw-udt: %s\n", e.what());
    return 2;
  }
}
