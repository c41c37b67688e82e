// linkem's event loop.
#include "netns-scenarios/linkem/emulator.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "netns-scenarios/linkem/stats_json.h"

namespace linkem {
namespace {

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

// Seed of one direction derived from the run seed (splitmix64 of seed + index).
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t s = seed + index * 0x9E3779B97F4A7C15ULL;
  return ncgw::transport::splitmix64(s);
}

// True for IPv4, IPv6 and VLAN-tagged frames (those the loss model applies to by default).
bool is_ip_frame(const std::uint8_t* f, std::uint32_t len) {
  if (len < 14) return false;
  std::uint16_t type = static_cast<std::uint16_t>(f[12] << 8 | f[13]);
  return type == 0x0800 || type == 0x86DD || type == 0x8100;
}

// Adds `fd` to epoll for input.
void watch(int epfd, int fd) {
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = fd;
  if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) != 0)
    throw std::runtime_error(std::string("epoll_ctl: ") + std::strerror(errno));
}

// Opens a listening unix stream socket at `path` (replacing a stale file).
int listen_unix(const std::string& path) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  sockaddr_un sa{};
  sa.sun_family = AF_UNIX;
  if (path.size() >= sizeof sa.sun_path) throw std::runtime_error("control socket path too long");
  std::strncpy(sa.sun_path, path.c_str(), sizeof sa.sun_path - 1);
  unlink(path.c_str());
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || listen(fd, 8) != 0)
    throw std::runtime_error("control socket " + path + ": " + std::strerror(errno));
  return fd;
}

}  // namespace

Emulator::Emulator(const EmulatorOptions& o)
    : o_(o),
      a_(open_port(o.if_a)),
      b_(open_port(o.if_b)),
      sides_{{Direction(o.a2b, derive_seed(o.seed, 1)), {}, &a_, &b_},
             {Direction(o.b2a, derive_seed(o.seed, 2)), {}, &b_, &a_}},
      pool_(std::max(a_.mtu, b_.mtu) + 64) {
  epfd_ = epoll_create1(EPOLL_CLOEXEC);
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGINT, SIGTERM, SIGUSR1, SIGHUP}) sigaddset(&set, s);
  sigprocmask(SIG_BLOCK, &set, nullptr);
  sigfd_ = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
  watch(epfd_, a_.fd);
  watch(epfd_, b_.fd);
  watch(epfd_, sigfd_);
  if (!o.control_socket.empty()) {
    ctlfd_ = listen_unix(o.control_socket);
    watch(epfd_, ctlfd_);
  }
}

Emulator::~Emulator() {
  close_port(a_);
  close_port(b_);
  for (int fd : {epfd_, sigfd_, ctlfd_})
    if (fd >= 0) close(fd);
  if (!o_.control_socket.empty()) unlink(o_.control_socket.c_str());
}

std::int64_t Emulator::now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void Emulator::receive(Side& s) {
  const int n = std::min(o_.batch, 256);
  std::uint32_t handles[256];
  mmsghdr msgs[256];
  iovec iov[256];
  for (int round = 0; round < 4; ++round) {  // bounded, so due frames are not starved
    for (int i = 0; i < n; ++i) {
      handles[i] = pool_.acquire();
      iov[i] = {pool_.data(handles[i]), pool_.slot_size()};
      msgs[i] = {};
      msgs[i].msg_hdr.msg_iov = &iov[i];
      msgs[i].msg_hdr.msg_iovlen = 1;
    }
    int got = recvmmsg(s.in->fd, msgs, n, MSG_DONTWAIT, nullptr);
    std::int64_t now = now_ns();
    for (int i = 0; i < std::max(got, 0); ++i) {
      std::uint32_t len = msgs[i].msg_len;
      Verdict v = s.dir.offer(len, now, is_ip_frame(pool_.data(handles[i]), len));
      if (v.copies == 0) {
        pool_.release(handles[i]);
        continue;
      }
      s.line.push(v.at[0], handles[i], len);
      if (v.copies == 2) {
        std::uint32_t dup = pool_.acquire();
        std::memcpy(pool_.data(dup), pool_.data(handles[i]), len);
        s.line.push(v.at[1], dup, len);
      }
    }
    for (int i = std::max(got, 0); i < n; ++i) pool_.release(handles[i]);
    if (got < n) return;
  }
}

void Emulator::transmit(Side& s, std::int64_t now) {
  mmsghdr msgs[256];
  iovec iov[256];
  Scheduled items[256];
  const int n = std::min(o_.batch, 256);
  while (!s.line.empty() && s.line.top().at_ns <= now) {
    int k = 0;
    for (; k < n && !s.line.empty() && s.line.top().at_ns <= now; ++k) {
      items[k] = s.line.top();
      s.line.pop();
      iov[k] = {pool_.data(items[k].handle), items[k].len};
      msgs[k] = {};
      msgs[k].msg_hdr.msg_iov = &iov[k];
      msgs[k].msg_hdr.msg_iovlen = 1;
    }
    int sent = 0;
    while (sent < k) {
      int r = sendmmsg(s.out->fd, msgs + sent, k - sent, 0);
      if (r <= 0) {  // the first unsent frame is refused: count it and skip it
        s.dir.on_sent(items[sent].len, false);
        ++sent;
        continue;
      }
      for (int i = sent; i < sent + r; ++i) s.dir.on_sent(items[i].len, true);
      sent += r;
    }
    for (int i = 0; i < k; ++i) pool_.release(items[i].handle);
  }
}

std::int64_t Emulator::next_deadline() const {
  std::int64_t t = kNever;
  for (const auto& s : sides_)
    if (!s.line.empty()) t = std::min(t, s.line.top().at_ns);
  if (!o_.stats_file.empty()) t = std::min(t, next_stats_ns_);
  if (next_change_ < o_.schedule.size())
    t = std::min(t, start_ns_ + o_.schedule[next_change_].at_ns);
  if (o_.duration_ns > 0) t = std::min(t, start_ns_ + o_.duration_ns);
  return t;
}

std::string Emulator::apply(Target t, const std::string& spec) {
  for (int i = 0; i < 2; ++i) {
    if ((i == 0 && t == Target::b2a) || (i == 1 && t == Target::a2b)) continue;
    DirectionSettings s = sides_[i].dir.settings();
    std::string err = apply_spec(spec, s);
    if (!err.empty()) return err;
    sides_[i].dir.configure(s);
  }
  return {};
}

void Emulator::apply_schedule(std::int64_t now) {
  while (next_change_ < o_.schedule.size() &&
         start_ns_ + o_.schedule[next_change_].at_ns <= now) {
    const auto& c = o_.schedule[next_change_++];
    std::string err = apply(c.target, c.spec);
    std::fprintf(stderr, "linkem: t=%.3fs schedule '%s' %s\n", (now - start_ns_) / 1e9,
                 c.spec.c_str(), err.empty() ? "applied" : err.c_str());
  }
}

nlohmann::json Emulator::stats_json() {
  std::int64_t now = now_ns();
  nlohmann::json j;
  j["seed"] = o_.seed;
  j["uptime_s"] = (now - start_ns_) / 1e9;
  const char* names[2] = {"a2b", "b2a"};
  for (int i = 0; i < 2; ++i) {
    auto& s = sides_[i];
    nlohmann::json d = counters_json(s.dir.counters(now));
    d["interface_in"] = s.in->name;
    d["interface_out"] = s.out->name;
    d["seed"] = s.dir.seed();
    d["settings"] = to_spec(s.dir.settings());
    d["in_flight"] = s.line.size();
    j[names[i]] = d;
  }
  return j;
}

std::string Emulator::handle_command(const std::string& line) {
  std::istringstream in(line);
  std::string cmd, target;
  in >> cmd;
  if (cmd == "stats") return stats_json().dump() + "\n";
  if (cmd == "get") {
    return "a2b " + to_spec(sides_[0].dir.settings()) + "\nb2a " +
           to_spec(sides_[1].dir.settings()) + "\n";
  }
  if (cmd == "set") {
    Target t;
    if (!(in >> target) || !parse_target(target, t)) return "error: set a2b|b2a|both key=value...\n";
    std::string spec;
    std::getline(in, spec);
    std::string err = apply(t, spec);
    if (!err.empty()) return "error: " + err + "\n";
    std::fprintf(stderr, "linkem: t=%.3fs control set %s%s\n", (now_ns() - start_ns_) / 1e9,
                 target.c_str(), spec.c_str());
    return "ok\n";
  }
  return "error: commands are stats, get, set a2b|b2a|both key=value...\n";
}

void Emulator::serve_control() {
  for (;;) {
    int c = accept4(ctlfd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) return;
    timeval tv{0, 200000};
    setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    std::string line;
    char buf[512];
    while (line.find('\n') == std::string::npos && line.size() < 4096) {
      ssize_t r = read(c, buf, sizeof buf);
      if (r <= 0) break;
      line.append(buf, static_cast<std::size_t>(r));
    }
    std::string reply = handle_command(line.substr(0, line.find('\n')));
    for (std::size_t off = 0; off < reply.size();) {
      ssize_t w = write(c, reply.data() + off, reply.size() - off);
      if (w <= 0) break;
      off += static_cast<std::size_t>(w);
    }
    close(c);
  }
}

void Emulator::write_stats_file() {
  std::string tmp = o_.stats_file + ".tmp";
  {
    std::ofstream f(tmp);
    f << stats_json().dump() << "\n";
  }
  std::rename(tmp.c_str(), o_.stats_file.c_str());
}

bool Emulator::handle_signal() {
  signalfd_siginfo si;
  bool keep = true;
  while (read(sigfd_, &si, sizeof si) == sizeof si) {
    if (si.ssi_signo == SIGUSR1) std::fprintf(stderr, "%s\n", stats_json().dump().c_str());
    else keep = false;
  }
  return keep;
}

void Emulator::run() {
  start_ns_ = now_ns();
  next_stats_ns_ = start_ns_;
  epoll_event evs[8];
  for (bool running = true; running;) {
    std::int64_t now = now_ns();
    std::int64_t deadline = next_deadline();
    std::int64_t wait = deadline == kNever ? -1 : std::max<std::int64_t>(0, deadline - now);
    if (wait >= 0 && wait <= o_.spin_ns) wait = 0;  // busy-poll the last stretch
    timespec ts{static_cast<time_t>(wait / 1000000000), static_cast<long>(wait % 1000000000)};
    int n = epoll_pwait2(epfd_, evs, 8, wait < 0 ? nullptr : &ts, nullptr);
    for (int i = 0; i < n; ++i) {
      int fd = evs[i].data.fd;
      if (fd == a_.fd) receive(sides_[0]);
      else if (fd == b_.fd) receive(sides_[1]);
      else if (fd == sigfd_) running = handle_signal();
      else if (fd == ctlfd_) serve_control();
    }
    now = now_ns();
    apply_schedule(now);
    transmit(sides_[0], now);
    transmit(sides_[1], now);
    if (!o_.stats_file.empty() && now >= next_stats_ns_) {
      write_stats_file();
      next_stats_ns_ = now + o_.stats_interval_ns;
    }
    if (o_.duration_ns > 0 && now >= start_ns_ + o_.duration_ns) running = false;
  }
  if (!o_.stats_file.empty()) write_stats_file();
}

}  // namespace linkem
