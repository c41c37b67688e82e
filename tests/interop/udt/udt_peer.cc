// The reference side of the interop and netns tests and of the benchmark: a small program on
// Debian's libudt (UDT 4.11).
// Usage: udt_peer role=caller|listener|rendezvous peer=IP:PORT type=stream|dgram dir=send|recv
//                 [bytes=N] [messages=N] [max=1400] [seed=S] [ttl=MS]
//                 [local=IP[:PORT]] (default 127.0.0.1) [port=P] (local port, if local has none)
//                 [ackwait=S] (sender: wait up to S s, default 120, for everything to be acknowledged)
//        [nocheck=1] (benchmark: zeros, no checksum)
//        udt_peer checksum-file=F [message-size=N]   (prints the checksum of a file, as a stream or
//                                                      as messages of N bytes, the last one shorter)
// Prints "port=P" once bound, then "done bytes=N messages=M checksum=HEX" (or "error ...").
// The library calls srand/rand, busy-waits and leaks: run it as its own process, serially.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <udt/udt.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "payload.h"

using ncgw::udt::interop::Checksum;
using ncgw::udt::interop::Gen;

namespace {

std::map<std::string, std::string> g_args;

std::string arg(const std::string& k, const std::string& def = "") {
  const auto it = g_args.find(k);
  return it == g_args.end() ? def : it->second;
}

int fail(const char* what) {
  std::printf("error %s: %s\n", what, UDT::getlasterror().getErrorMessage());
  std::fflush(stdout);
  return 1;
}

// Like fail, for the receiver: how far it got and how many packets the library still held readable.
int fail_receiving(const char* what, UDTSOCKET u, unsigned long long got, unsigned long long want, const char* unit) {
  const std::string err = UDT::getlasterror().getErrorMessage();
  int held = -1, len = sizeof held;
  UDT::getsockopt(u, 0, UDT_RCVDATA, &held, &len);
  std::printf("error %s: %s (after %llu of %llu %s; %d packets still readable)\n", what, err.c_str(), got, want, unit, held);
  std::fflush(stdout);
  return 1;
}

sockaddr_in parse_addr(const std::string& s) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  const auto colon = s.rfind(':');
  const std::string host = colon == std::string::npos ? s : s.substr(0, colon);
  inet_pton(AF_INET, host.c_str(), &a.sin_addr);
  if (colon != std::string::npos) a.sin_port = htons(static_cast<std::uint16_t>(std::atoi(s.substr(colon + 1).c_str())));
  return a;
}

int send_all(UDTSOCKET u, bool dgram) {
  const bool nocheck = arg("nocheck") == "1";  // benchmark: zeros, no generator or checksum cost
  Gen gen(std::strtoull(arg("seed", "1").c_str(), nullptr, 10));
  Checksum sum;
  std::vector<std::uint8_t> buf(1 << 20);
  if (dgram) {
    const long n = std::atol(arg("messages", "0").c_str());
    const std::size_t max = std::strtoul(arg("max", "1400").c_str(), nullptr, 10);
    const int ttl = std::atoi(arg("ttl", "-1").c_str());  // ms; -1: never expires
    for (long i = 0; i < n; ++i) {
      const std::size_t len = gen.message(buf.data(), max);
      if (UDT::sendmsg(u, reinterpret_cast<char*>(buf.data()), static_cast<int>(len), ttl, true) < 0) return fail("sendmsg");
      sum.add_message(buf.data(), len);
    }
  } else {
    long long left = std::atoll(arg("bytes", "0").c_str());
    while (left > 0) {
      const std::size_t len = left < static_cast<long long>(buf.size()) ? static_cast<std::size_t>(left) : buf.size();
      if (!nocheck) gen.fill(buf.data(), len);
      std::size_t off = 0;
      while (off < len) {
        const int r = UDT::send(u, reinterpret_cast<char*>(buf.data() + off), static_cast<int>(len - off), 0);
        if (r < 0) return fail("send");
        off += static_cast<std::size_t>(r);
      }
      if (!nocheck) sum.add(buf.data(), len);
      left -= static_cast<long long>(len);
    }
  }
  const int ackwait_ms = 1000 * std::atoi(arg("ackwait", "120").c_str());
  int pending = 0;
  for (int i = 0; i < ackwait_ms; ++i) {  // wait until everything is acknowledged
    int len = sizeof pending;
    if (UDT::getsockopt(u, 0, UDT_SNDDATA, &pending, &len) < 0 || pending <= 0) break;
    usleep(1000);
  }
  // pending < 0: the library's count went below zero, the ACK passed its last packet (drop ranges
  // run one past their message: docs/udt-wire.md); everything is acknowledged then.
  if (pending < 0) std::fprintf(stderr, "udt_peer: UDT_SNDDATA %d after all was acknowledged\n", pending);
  if (pending > 0) {  // the receiver never acknowledged everything
    std::printf("error unacknowledged: %d packets after %d s\n", pending, ackwait_ms / 1000);
    return 1;
  }
  std::printf("done bytes=%llu messages=%llu checksum=%s\n", static_cast<unsigned long long>(sum.bytes()),
              static_cast<unsigned long long>(sum.messages()), sum.hex().c_str());
  return 0;
}

// Keeps the connection open after the last expected byte until the sender closes, for at most a
// second: libudt re-sends its final ACK (every RTT) until the sender's ACK2 confirms it, while a
// receiver that closes at once leaves a sender whose last ACK was lost (and whose SHUTDOWN from us
// was lost too) retransmitting into a closed socket until its EXP timer breaks the connection,
// tens of seconds later, although every byte arrived. An application reads to the end of the
// stream the same way.
void await_sender_close(UDTSOCKET u, bool dgram) {
  int ms = 1000;
  UDT::setsockopt(u, 0, UDT_RCVTIMEO, &ms, sizeof ms);
  char extra[1500];
  const int r = dgram ? UDT::recvmsg(u, extra, sizeof extra) : UDT::recv(u, extra, sizeof extra, 0);
  if (r > 0) std::fprintf(stderr, "udt_peer: %d more bytes after the last expected one\n", r);
}

int recv_all(UDTSOCKET u, bool dgram) {
  const bool nocheck = arg("nocheck") == "1";
  unsigned long long got = 0;
  Checksum sum;
  std::vector<std::uint8_t> buf(1 << 20);
  if (dgram) {
    const unsigned long long n = std::strtoull(arg("messages", "0").c_str(), nullptr, 10);
    while (sum.messages() < n) {
      const int r = UDT::recvmsg(u, reinterpret_cast<char*>(buf.data()), 65536);
      if (r < 0) return fail_receiving("recvmsg", u, sum.messages(), n, "messages");
      sum.add_message(buf.data(), static_cast<std::size_t>(r));
    }
  } else {
    const unsigned long long n = std::strtoull(arg("bytes", "0").c_str(), nullptr, 10);
    while (got < n) {
      const int r = UDT::recv(u, reinterpret_cast<char*>(buf.data()), static_cast<int>(buf.size()), 0);
      if (r < 0) return fail_receiving("recv", u, got, n, "bytes");
      got += static_cast<unsigned long long>(r);
      if (!nocheck) sum.add(buf.data(), static_cast<std::size_t>(r));
    }
  }
  std::printf("done bytes=%llu messages=%llu checksum=%s\n", static_cast<unsigned long long>(sum.bytes()),
              static_cast<unsigned long long>(sum.messages()), sum.hex().c_str());
  std::fflush(stdout);
  await_sender_close(u, dgram);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto eq = a.find('=');
    if (eq != std::string::npos) g_args[a.substr(0, eq)] = a.substr(eq + 1);
  }
  if (!arg("checksum-file").empty()) {  // helper for the tool test: FNV-1a of a file
    Checksum sum;
    FILE* f = std::fopen(arg("checksum-file").c_str(), "rb");
    if (!f) return 1;
    const std::size_t msg = std::strtoul(arg("message-size", "0").c_str(), nullptr, 10);  // 0: stream
    std::vector<std::uint8_t> b(msg ? msg : 1 << 16);
    for (std::size_t n; (n = std::fread(b.data(), 1, b.size(), f)) > 0;) {
      if (msg) sum.add_message(b.data(), n); else sum.add(b.data(), n);
    }
    std::fclose(f);
    std::printf("done bytes=%llu messages=%llu checksum=%s\n", static_cast<unsigned long long>(sum.bytes()),
                static_cast<unsigned long long>(sum.messages()), sum.hex().c_str());
    return 0;
  }
  UDT::startup();
  const bool dgram = arg("type", "stream") == "dgram";
  const std::string role = arg("role", "caller");
  UDTSOCKET s = UDT::socket(AF_INET, dgram ? SOCK_DGRAM : SOCK_STREAM, 0);
  if (role == "rendezvous") {
    bool yes = true;
    UDT::setsockopt(s, 0, UDT_RENDEZVOUS, &yes, sizeof yes);
  }
  sockaddr_in local = parse_addr(arg("local", "127.0.0.1"));
  if (local.sin_port == 0) local.sin_port = htons(static_cast<std::uint16_t>(std::atoi(arg("port", "0").c_str())));
  if (UDT::bind(s, reinterpret_cast<sockaddr*>(&local), sizeof local) < 0) return fail("bind");
  int namelen = sizeof local;
  UDT::getsockname(s, reinterpret_cast<sockaddr*>(&local), &namelen);
  std::printf("port=%d\n", ntohs(local.sin_port));
  std::fflush(stdout);
  UDTSOCKET u = s;
  if (role == "listener") {
    if (UDT::listen(s, 10) < 0) return fail("listen");
    sockaddr_in from{};
    int fl = sizeof from;
    u = UDT::accept(s, reinterpret_cast<sockaddr*>(&from), &fl);
    if (u == UDT::INVALID_SOCK) return fail("accept");
  } else {
    if (role == "rendezvous") usleep(200000);  // let the other side bind first
    sockaddr_in peer = parse_addr(arg("peer"));
    if (UDT::connect(s, reinterpret_cast<sockaddr*>(&peer), sizeof peer) < 0) return fail("connect");
  }
  const int rc = arg("dir", "recv") == "send" ? send_all(u, dgram) : recv_all(u, dgram);
  std::fflush(stdout);
  UDT::close(u);
  if (u != s) UDT::close(s);
  _exit(rc);  // the library's threads and leaks: leave without its cleanup
}
