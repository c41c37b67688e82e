#include "gateway/udp_port.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <system_error>

namespace ncgw::gateway {

namespace {

// Socket buffer size: large enough for bursts at Gbit/s rates (docs/traps.md, Performance).
constexpr int kSocketBuffer = 8 * 1024 * 1024;

// Sets buffers (forcing past rmem_max as root) and path-MTU discovery "do" (never fragment).
void tune_socket(int fd, bool v6) {
  int size = kSocketBuffer;
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) < 0) {
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
  }
  if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof size) < 0) {
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
  }
  int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
  int pmtu = IP_PMTUDISC_DO;
  setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof pmtu);
  if (v6) {
    int pmtu6 = IPV6_PMTUDISC_DO;
    setsockopt(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &pmtu6, sizeof pmtu6);
  }
}

// The SCM_TIMESTAMPNS of a received message in ns, or 0.
std::int64_t kernel_timestamp_ns(msghdr& h) {
  for (cmsghdr* c = CMSG_FIRSTHDR(&h); c; c = CMSG_NXTHDR(&h, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
      timespec ts{};
      std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
      return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
    }
  }
  return 0;
}

}  // namespace

UdpPort::UdpPort(const config::IpAddress& address, std::uint16_t port)
    : rx_buf_(kBatch), tx_buf_(kBatch) {
  const SocketAddress local = SocketAddress::from(address, port);
  local_name_ = local.to_string();
  fd_ = ::socket(local.family(), SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "udp socket " + local_name_);
  tune_socket(fd_, address.v6);
  if (::bind(fd_, reinterpret_cast<const sockaddr*>(&local.storage), local.length) < 0) {
    const int err = errno;
    ::close(fd_);
    throw std::system_error(err, std::generic_category(), "bind udp " + local_name_);
  }
}

UdpPort::~UdpPort() {
  if (fd_ >= 0) ::close(fd_);
}

std::size_t UdpPort::receive_batch() {
  std::array<mmsghdr, kBatch> msgs{};
  std::array<iovec, kBatch> iov{};
  alignas(cmsghdr) static thread_local char control[kBatch][CMSG_SPACE(sizeof(timespec)) + 64];
  for (std::size_t i = 0; i < kBatch; ++i) {
    iov[i] = {rx_buf_[i].data(), kMaxDatagram};
    msgs[i].msg_hdr.msg_control = control[i];
    msgs[i].msg_hdr.msg_controllen = sizeof control[i];
    msgs[i].msg_hdr.msg_iov = &iov[i];
    msgs[i].msg_hdr.msg_iovlen = 1;
    msgs[i].msg_hdr.msg_name = &rx_from_[i].storage;
    msgs[i].msg_hdr.msg_namelen = sizeof(sockaddr_storage);
  }
  const int n = ::recvmmsg(fd_, msgs.data(), kBatch, MSG_DONTWAIT, nullptr);
  if (n < 0) {
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) ++receive_errors_;
    return 0;
  }
  for (int i = 0; i < n; ++i) {
    rx_truncated_[i] = (msgs[i].msg_hdr.msg_flags & MSG_TRUNC) != 0;
    if (rx_truncated_[i]) ++truncated_;
    rx_len_[i] = msgs[i].msg_len;
    rx_from_[i].length = msgs[i].msg_hdr.msg_namelen;
    rx_realtime_ns_[i] = kernel_timestamp_ns(msgs[i].msg_hdr);
  }
  return static_cast<std::size_t>(n);
}

std::span<std::uint8_t> UdpPort::send_slot() {
  if (tx_count_ == kBatch) flush();
  return {tx_buf_[tx_count_].data(), kMaxDatagram};
}

void UdpPort::commit_send(std::size_t length, const SocketAddress& to) {
  tx_len_[tx_count_] = length;
  tx_to_[tx_count_] = to;
  ++tx_count_;
  if (tx_count_ == kBatch) flush();
}

std::size_t UdpPort::flush() {
  std::array<mmsghdr, kBatch> msgs{};
  std::array<iovec, kBatch> iov{};
  for (std::size_t i = 0; i < tx_count_; ++i) {
    iov[i] = {tx_buf_[i].data(), tx_len_[i]};
    msgs[i].msg_hdr.msg_iov = &iov[i];
    msgs[i].msg_hdr.msg_iovlen = 1;
    msgs[i].msg_hdr.msg_name = &tx_to_[i].storage;
    msgs[i].msg_hdr.msg_namelen = tx_to_[i].length;
  }
  std::size_t sent = 0, refused = 0;
  while (sent < tx_count_) {
    const int n = ::sendmmsg(fd_, msgs.data() + sent, static_cast<unsigned>(tx_count_ - sent), 0);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    ++refused;  // this datagram is refused (EMSGSIZE, ENOBUFS, unreachable...): skip it
    ++sent;
  }
  send_errors_ += refused;
  tx_count_ = 0;
  return refused;
}

}  // namespace ncgw::gateway
