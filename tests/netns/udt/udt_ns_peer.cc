// A libudt (UDT 4.11) stream peer for the netns tests and the TBF benchmark: like
// tests/interop/udt/udt_peer, but it binds to a given address (that one binds to 127.0.0.1 only,
// so it cannot leave its namespace). Stream mode only.
// Usage: udt_ns_peer role=caller|listener local=IP[:PORT] [peer=IP:PORT] dir=send|recv bytes=N
//                    [seed=S] [nocheck=1]
//        udt_ns_peer checksum-file=F   (prints the stream checksum of a file, as udt_peer does)
// Prints "port=P" once bound, then "done bytes=N messages=0 checksum=HEX" (the checksum of
// tests/interop/udt/payload.h, as udt_peer prints it) or "error ...".
// The library calls srand/rand, busy-waits and leaks: run it as its own process, serially.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <udt/udt.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
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

sockaddr_in parse_addr(const std::string& s) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  const auto colon = s.rfind(':');
  const std::string host = colon == std::string::npos ? s : s.substr(0, colon);
  inet_pton(AF_INET, host.c_str(), &a.sin_addr);
  if (colon != std::string::npos)
    a.sin_port = htons(static_cast<std::uint16_t>(std::atoi(s.substr(colon + 1).c_str())));
  return a;
}

void done(const Checksum& sum) {
  std::printf("done bytes=%llu messages=0 checksum=%s\n", static_cast<unsigned long long>(sum.bytes()),
              sum.hex().c_str());
}

int send_all(UDTSOCKET u) {
  const bool nocheck = arg("nocheck") == "1";
  Gen gen(std::strtoull(arg("seed", "1").c_str(), nullptr, 10));
  Checksum sum;
  std::vector<std::uint8_t> buf(1 << 20, 0);
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
  for (int i = 0; i < 120000; ++i) {  // wait (up to 120 s) until everything is acknowledged
    int pending = 0, len = sizeof pending;
    if (UDT::getsockopt(u, 0, UDT_SNDDATA, &pending, &len) < 0 || pending == 0) break;
    usleep(1000);
  }
  done(sum);
  return 0;
}

int recv_all(UDTSOCKET u) {
  const bool nocheck = arg("nocheck") == "1";
  Checksum sum;
  std::vector<std::uint8_t> buf(1 << 20);
  const unsigned long long n = std::strtoull(arg("bytes", "0").c_str(), nullptr, 10);
  unsigned long long got = 0;
  while (got < n) {
    const int r = UDT::recv(u, reinterpret_cast<char*>(buf.data()), static_cast<int>(buf.size()), 0);
    if (r < 0) return fail("recv");
    got += static_cast<unsigned long long>(r);
    if (!nocheck) sum.add(buf.data(), static_cast<std::size_t>(r));
  }
  if (nocheck) {
    std::printf("done bytes=%llu messages=0 checksum=none\n", got);
    return 0;
  }
  done(sum);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto eq = a.find('=');
    if (eq != std::string::npos) g_args[a.substr(0, eq)] = a.substr(eq + 1);
  }
  if (!arg("checksum-file").empty()) {
    Checksum sum;
    FILE* f = std::fopen(arg("checksum-file").c_str(), "rb");
    if (!f) return 1;
    std::vector<std::uint8_t> b(1 << 16);
    for (std::size_t n; (n = std::fread(b.data(), 1, b.size(), f)) > 0;) sum.add(b.data(), n);
    std::fclose(f);
    done(sum);
    return 0;
  }
  if (arg("local").empty()) {
    std::fprintf(stderr, "udt_ns_peer: local=IP[:PORT] is required\n");
    return 2;
  }
  UDT::startup();
  const std::string role = arg("role", "caller");
  UDTSOCKET s = UDT::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in local = parse_addr(arg("local"));
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
    sockaddr_in peer = parse_addr(arg("peer"));
    if (UDT::connect(s, reinterpret_cast<sockaddr*>(&peer), sizeof peer) < 0) return fail("connect");
  }
  const int rc = arg("dir", "recv") == "send" ? send_all(u) : recv_all(u);
  std::fflush(stdout);
  UDT::close(u);
  if (u != s) UDT::close(s);
  _exit(rc);  // the library's threads and leaks: leave without its cleanup
}
