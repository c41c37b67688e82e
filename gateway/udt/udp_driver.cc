#include "gateway/udt/udp_driver.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <cstring>
#include <stdexcept>
#include <string>

namespace ncgw::udt {
namespace {

constexpr int kBatch = 64;
constexpr std::size_t kSlot = 2048;

socklen_t to_sockaddr(const PeerAddress& a, sockaddr_storage& ss) {
  std::memset(&ss, 0, sizeof ss);
  if (a.v6) {
    auto* s6 = reinterpret_cast<sockaddr_in6*>(&ss);
    s6->sin6_family = AF_INET6;
    s6->sin6_port = htons(a.port);
    std::memcpy(&s6->sin6_addr, a.bytes.data(), 16);
    return sizeof(sockaddr_in6);
  }
  auto* s4 = reinterpret_cast<sockaddr_in*>(&ss);
  s4->sin_family = AF_INET;
  s4->sin_port = htons(a.port);
  std::memcpy(&s4->sin_addr, a.bytes.data(), 4);
  return sizeof(sockaddr_in);
}

PeerAddress from_sockaddr(const sockaddr_storage& ss) {
  PeerAddress a;
  if (ss.ss_family == AF_INET6) {
    const auto* s6 = reinterpret_cast<const sockaddr_in6*>(&ss);
    a.v6 = true;
    a.port = ntohs(s6->sin6_port);
    std::memcpy(a.bytes.data(), &s6->sin6_addr, 16);
  } else {
    const auto* s4 = reinterpret_cast<const sockaddr_in*>(&ss);
    a.port = ntohs(s4->sin_port);
    std::memcpy(a.bytes.data(), &s4->sin_addr, 4);
  }
  return a;
}

}  // namespace

UdpDriver::UdpDriver(Endpoint& ep, const PeerAddress& bind_to) : ep_(ep), v6_(bind_to.v6) {
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);  // precise pacing wake-ups (docs/traps.md)
  fd_ = ::socket(v6_ ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw std::runtime_error("socket: " + std::string(std::strerror(errno)));
  const int buf = 16 << 20;
  if (setsockopt(fd_, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof buf) != 0) {
    setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &buf, sizeof buf);
  }
  if (setsockopt(fd_, SOL_SOCKET, SO_SNDBUFFORCE, &buf, sizeof buf) != 0) {
    setsockopt(fd_, SOL_SOCKET, SO_SNDBUF, &buf, sizeof buf);
  }
  const int on = 1;  // kernel arrival times: UDT's arrival-rate and packet-pair estimates need them
  setsockopt(fd_, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
  sockaddr_storage ss;
  const socklen_t len = to_sockaddr(bind_to, ss);
  if (::bind(fd_, reinterpret_cast<sockaddr*>(&ss), len) != 0) {
    const std::string err = std::strerror(errno);
    ::close(fd_);
    throw std::runtime_error("bind " + bind_to.to_string() + ": " + err);
  }
  socklen_t sl = sizeof ss;
  getsockname(fd_, reinterpret_cast<sockaddr*>(&ss), &sl);
  port_ = from_sockaddr(ss).port;
  rx_.resize(kBatch * kSlot);
  tx_.resize(kBatch * kSlot);
}

UdpDriver::~UdpDriver() {
  if (fd_ >= 0) ::close(fd_);
}

TimePoint UdpDriver::now() {
  return transport::time_from_ns(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

// The arrival time of a datagram in core time: its kernel timestamp (CLOCK_REALTIME) moved onto
// the steady clock, never later than `now`; `now` if the kernel gave none.
static TimePoint arrival_time(msghdr& h, TimePoint now, std::int64_t real_minus_steady_ns) {
  for (cmsghdr* c = CMSG_FIRSTHDR(&h); c; c = CMSG_NXTHDR(&h, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
      timespec ts;
      std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
      const std::int64_t t = ts.tv_sec * 1'000'000'000LL + ts.tv_nsec - real_minus_steady_ns;
      return std::min(now, transport::time_from_ns(t));
    }
  }
  return now;
}

void UdpDriver::receive_all(TimePoint now) {
  mmsghdr msgs[kBatch];
  iovec iov[kBatch];
  sockaddr_storage addrs[kBatch];
  alignas(cmsghdr) char ctrl[kBatch][CMSG_SPACE(sizeof(timespec)) + 64];
  timespec rt;
  clock_gettime(CLOCK_REALTIME, &rt);
  const std::int64_t offset = rt.tv_sec * 1'000'000'000LL + rt.tv_nsec - transport::ns_since_epoch(now);
  for (int round = 0; round < 16; ++round) {
    for (int i = 0; i < kBatch; ++i) {
      iov[i] = {rx_.data() + i * kSlot, kSlot};
      msgs[i].msg_hdr = msghdr{&addrs[i], sizeof(sockaddr_storage), &iov[i], 1, ctrl[i], sizeof ctrl[i], 0};
    }
    const int n = recvmmsg(fd_, msgs, kBatch, MSG_DONTWAIT, nullptr);
    if (n <= 0) return;
    for (int i = 0; i < n; ++i) {
      const TimePoint at = arrival_time(msgs[i].msg_hdr, now, offset);
      const std::span<const std::uint8_t> d(rx_.data() + i * kSlot, msgs[i].msg_len);
      if (receive_filter_ && receive_filter_(d, at)) continue;
      ep_.on_datagram(d, from_sockaddr(addrs[i]), at);
    }
    received_ += static_cast<std::uint64_t>(n);
    if (n < kBatch) return;
  }
}

bool UdpDriver::transmit_all(TimePoint now) {
  mmsghdr msgs[kBatch];
  iovec iov[kBatch];
  sockaddr_storage addrs[kBatch];
  for (int round = 0; round < 16; ++round) {
    int n = 0;
    if (pending_len_ > 0) {
      iov[0] = {tx_.data(), pending_len_};
      msgs[0].msg_hdr = msghdr{&addrs[0], to_sockaddr(pending_to_, addrs[0]), &iov[0], 1, nullptr, 0, 0};
      n = 1;
      pending_len_ = 0;
    }
    for (; n < kBatch; ++n) {
      const auto t = ep_.poll_transmit(std::span(tx_.data() + n * kSlot, kSlot), now);
      if (!t) break;
      iov[n] = {tx_.data() + n * kSlot, t->size};
      msgs[n].msg_hdr = msghdr{&addrs[n], to_sockaddr(t->to, addrs[n]), &iov[n], 1, nullptr, 0, 0};
    }
    if (n == 0) return true;
    int done = 0;
    while (done < n) {
      const int r = sendmmsg(fd_, msgs + done, static_cast<unsigned>(n - done), 0);
      if (r < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS) break;
        ++done;  // e.g. ECONNREFUSED from an ICMP error: skip that datagram
        continue;
      }
      done += r;
    }
    sent_ += static_cast<std::uint64_t>(done);
    if (done < n) {  // keep the first unsent datagram; the rest are lost (UDT recovers them)
      pending_len_ = iov[done].iov_len;
      pending_to_ = from_sockaddr(addrs[done]);
      std::memmove(tx_.data(), iov[done].iov_base, pending_len_);
      return false;
    }
    if (n < kBatch) return true;
  }
  return true;
}

void UdpDriver::wait(TimePoint now, int extra_fd, bool want_write) {
  pollfd fds[2] = {{fd_, static_cast<short>(POLLIN | (want_write ? POLLOUT : 0)), 0}, {extra_fd, POLLIN, 0}};
  std::int64_t wait_ns = 20'000'000;  // cap: the caller's step runs at least every 20 ms
  if (const auto d = ep_.next_deadline()) wait_ns = std::min(wait_ns, transport::ns_since_epoch(*d) - transport::ns_since_epoch(now));
  if (wait_ns <= 0) return;
  const timespec ts{static_cast<time_t>(wait_ns / 1'000'000'000), static_cast<long>(wait_ns % 1'000'000'000)};
  ppoll(fds, extra_fd >= 0 ? 2 : 1, &ts, nullptr);
}

bool UdpDriver::run(const std::function<bool(TimePoint)>& step, std::chrono::nanoseconds timeout,
                    const std::function<int()>& input_fd) {
  const TimePoint end = now() + timeout;
  for (;;) {
    TimePoint t = now();
    receive_all(t);
    const auto d = ep_.next_deadline();
    if (d && *d <= t) ep_.on_timeout(t);
    if (step(t)) {
      transmit_all(now());  // flush what the last step queued (e.g. shutdown)
      return true;
    }
    t = now();
    const bool flushed = transmit_all(t);
    if (t >= end) return false;
    wait(now(), input_fd ? input_fd() : -1, !flushed);
  }
}

}  // namespace ncgw::udt
