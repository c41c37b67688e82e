#include "gateway/udp_port.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <system_error>

#include <spdlog/spdlog.h>

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

// What the control messages of a received message say: kernel receive time (SCM_TIMESTAMPNS, ns,
// 0 if absent) and the GRO segment size (0: one datagram).
struct ReceiveInfo {
  std::int64_t realtime_ns = 0;
  std::size_t segment = 0;
};

ReceiveInfo receive_info(msghdr& h) {
  ReceiveInfo info;
  for (cmsghdr* c = CMSG_FIRSTHDR(&h); c; c = CMSG_NXTHDR(&h, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
      timespec ts{};
      std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
      info.realtime_ns = std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
    } else if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO) {
      int size = 0;
      std::memcpy(&size, CMSG_DATA(c), sizeof size);
      info.segment = size > 0 ? static_cast<std::size_t>(size) : 0;
    }
  }
  return info;
}

// Room for the control messages of one received message.
constexpr std::size_t kReceiveControl = CMSG_SPACE(sizeof(timespec)) + CMSG_SPACE(sizeof(int)) + 64;
// The error a kernel gives when it cannot do UDP GSO on this socket or path.
bool gso_refused(int error) { return error == EIO || error == EINVAL || error == EOPNOTSUPP || error == ENOPROTOOPT; }

}  // namespace

UdpPort::UdpPort(const SocketAddress& local, UdpOffloads offloads, WhenBlocked when_blocked,
                 const PortSharing& sharing)
    : when_blocked_(when_blocked), gso_(offloads != UdpOffloads::none), tx_buf_(kBatch) {
  local_name_ = local.to_string();
  fd_ = ::socket(local.family(), SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "udp socket " + local_name_);
  tune_socket(fd_, local.family() == AF_INET6);
  int reuse = 1;
  if (sharing.reuse_address) setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &reuse, sizeof reuse);
  if (::bind(fd_, reinterpret_cast<const sockaddr*>(&local.storage), local.length) < 0) {
    const int err = errno;
    ::close(fd_);
    throw std::system_error(err, std::generic_category(), "bind udp " + local_name_);
  }
  if (const auto& peer = sharing.connected_to;
      peer && ::connect(fd_, reinterpret_cast<const sockaddr*>(&peer->storage), peer->length) < 0) {
    const int err = errno;
    ::close(fd_);
    throw std::system_error(err, std::generic_category(), "connect udp " + local_name_ + " to " + peer->to_string());
  }
  SocketAddress bound;
  bound.length = sizeof bound.storage;
  if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&bound.storage), &bound.length) == 0) {
    local_name_ = bound.to_string();
    local_port_ = bound.port();
  }
  if (sharing.connected_to) local_name_ += " to " + sharing.connected_to->to_string();
  int on = 1;
  gro_ = offloads == UdpOffloads::both && ::setsockopt(fd_, SOL_UDP, UDP_GRO, &on, sizeof on) == 0;
  if (gro_) {
    rx_stride_ = 65536;
    rx_capacity_ = kGroMessages;
  }
  rx_buf_.resize(rx_stride_ * rx_capacity_);
}

UdpPort::~UdpPort() {
  if (fd_ >= 0) ::close(fd_);
}

std::size_t UdpPort::receive_batch() {
  std::array<mmsghdr, kBatch> msgs{};
  std::array<iovec, kBatch> iov{};
  alignas(cmsghdr) static thread_local char control[kBatch][kReceiveControl];
  for (std::size_t i = 0; i < rx_capacity_; ++i) {
    iov[i] = {rx_buf_.data() + i * rx_stride_, rx_stride_};
    msgs[i].msg_hdr.msg_control = control[i];
    msgs[i].msg_hdr.msg_controllen = sizeof control[i];
    msgs[i].msg_hdr.msg_iov = &iov[i];
    msgs[i].msg_hdr.msg_iovlen = 1;
    msgs[i].msg_hdr.msg_name = &rx_from_[i].storage;
    msgs[i].msg_hdr.msg_namelen = sizeof(sockaddr_storage);
  }
  rx_count_ = rx_messages_ = 0;
  const int n = ::recvmmsg(fd_, msgs.data(), static_cast<unsigned>(rx_capacity_), MSG_DONTWAIT, nullptr);
  if (n < 0) {
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) ++receive_errors_;
    return 0;
  }
  ++batches_.receive_calls;
  rx_messages_ = static_cast<std::size_t>(n);
  for (std::size_t m = 0; m < rx_messages_; ++m) {
    rx_truncated_[m] = (msgs[m].msg_hdr.msg_flags & MSG_TRUNC) != 0;
    if (rx_truncated_[m]) ++truncated_;
    rx_from_[m].length = msgs[m].msg_hdr.msg_namelen;
    const ReceiveInfo info = receive_info(msgs[m].msg_hdr);
    rx_realtime_ns_[m] = info.realtime_ns;
    add_received(m, std::min<std::size_t>(msgs[m].msg_len, rx_stride_), rx_truncated_[m] ? 0 : info.segment);
  }
  batches_.datagrams_received += rx_count_;
  return rx_count_;
}

void UdpPort::add_received(std::size_t m, std::size_t length, std::size_t segment) {
  const std::uint8_t* base = rx_buf_.data() + m * rx_stride_;
  if (segment == 0 || segment >= length) segment = length;
  if (segment < length) ++batches_.gro_receives;
  for (std::size_t at = 0; rx_count_ < kMaxReceived;) {
    rx_[rx_count_++] = {base + at, std::min(segment, length - at), m};
    at += segment;
    if (at >= length) break;
  }
}

std::span<std::uint8_t> UdpPort::send_slot() {
  if (tx_count_ == kBatch) flush();
  if (tx_count_ == kBatch) return {};  // every slot held for a full socket buffer
  return {tx_buf_[tx_count_].data(), kMaxDatagram};
}

void UdpPort::commit_send(std::size_t length, const SocketAddress& to) {
  tx_len_[tx_count_] = length;
  tx_to_[tx_count_] = to;
  ++tx_count_;
  if (tx_count_ == kBatch) flush();
}

std::size_t UdpPort::send_slots(std::span<std::span<std::uint8_t>> out) {
  if (tx_count_ == kBatch) flush();
  const std::size_t n = std::min(out.size(), kBatch - tx_count_);
  for (std::size_t i = 0; i < n; ++i) out[i] = {tx_buf_[tx_count_ + i].data(), kMaxDatagram};
  return n;
}

void UdpPort::commit_sends(std::span<const std::size_t> lengths, const SocketAddress& to) {
  for (const std::size_t length : lengths) {
    tx_len_[tx_count_] = length;
    tx_to_[tx_count_] = to;
    ++tx_count_;
  }
  if (tx_count_ == kBatch) flush();
}

std::size_t UdpPort::flush() {
  if (tx_count_ == 0) return 0;
  std::array<mmsghdr, kBatch> msgs{};
  std::array<iovec, kBatch> iov{};
  alignas(cmsghdr) char control[kBatch][CMSG_SPACE(sizeof(std::uint16_t))]{};
  std::array<std::size_t, kBatch> first{}, count{};
  std::size_t n = 0;
  for (std::size_t i = 0; i < tx_count_;) {
    // A GSO run: equal sizes (the last may be shorter) to one address, within the kernel's limits.
    std::size_t j = i + 1, bytes = tx_len_[i];
    while (gso_ && j < tx_count_ && j - i < kMaxGsoSegments && tx_len_[j] <= tx_len_[i] &&
           tx_len_[j - 1] == tx_len_[i] && bytes + tx_len_[j] <= kMaxGsoBytes && tx_to_[j].same_endpoint(tx_to_[i])) {
      bytes += tx_len_[j++];
    }
    for (std::size_t k = i; k < j; ++k) iov[k] = {tx_buf_[k].data(), tx_len_[k]};
    msghdr& h = msgs[n].msg_hdr;
    h.msg_iov = &iov[i];
    h.msg_iovlen = j - i;
    h.msg_name = &tx_to_[i].storage;
    h.msg_namelen = tx_to_[i].length;
    if (j - i > 1) {
      h.msg_control = control[n];
      h.msg_controllen = sizeof control[n];
      cmsghdr* c = CMSG_FIRSTHDR(&h);
      c->cmsg_level = SOL_UDP;
      c->cmsg_type = UDP_SEGMENT;
      c->cmsg_len = CMSG_LEN(sizeof(std::uint16_t));
      const auto segment = static_cast<std::uint16_t>(tx_len_[i]);
      std::memcpy(CMSG_DATA(c), &segment, sizeof segment);
    }
    first[n] = i;
    count[n++] = j - i;
    i = j;
  }
  held_from_ = tx_count_;
  const std::size_t refused = send_messages(msgs.data(), first.data(), count.data(), n);
  const std::size_t kept = tx_count_ - held_from_;
  send_errors_ += refused;
  batches_.datagrams_sent += tx_count_ - refused - kept;
  held_ = kept > 0;
  if (held_) keep_unsent(held_from_);
  else tx_count_ = 0;
  return refused;
}

void UdpPort::keep_unsent(std::size_t from) {
  for (std::size_t k = from; k < tx_count_; ++k) {
    std::swap(tx_buf_[k - from], tx_buf_[k]);
    tx_len_[k - from] = tx_len_[k];
    tx_to_[k - from] = tx_to_[k];
  }
  tx_count_ -= from;
}

std::size_t UdpPort::send_messages(mmsghdr* msgs, const std::size_t* first, const std::size_t* count, std::size_t n) {
  std::size_t sent = 0, refused = 0;
  while (sent < n) {
    const int r = ::sendmmsg(fd_, msgs + sent, static_cast<unsigned>(n - sent), 0);
    ++batches_.send_calls;
    if (r > 0) {
      for (std::size_t k = sent; k < sent + static_cast<std::size_t>(r); ++k) batches_.gso_sends += count[k] > 1;
      sent += static_cast<std::size_t>(r);
      continue;
    }
    if (r < 0 && errno == EINTR) continue;
    const bool full = r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS);
    if (full && when_blocked_ == WhenBlocked::hold) {
      held_from_ = first[sent];  // these and the rest wait for room
      return refused;
    }
    if (count[sent] > 1 && gso_refused(errno)) {
      spdlog::warn("udp {}: the kernel refused a GSO send ({}); sending datagram by datagram", local_name_,
                   std::strerror(errno));
      gso_ = false;
      refused += send_singly(first[sent], count[sent]);
    } else {
      refused += count[sent];   // refused (EMSGSIZE, ENOBUFS, unreachable...): skip it
    }
    ++sent;
  }
  return refused;
}

std::size_t UdpPort::send_singly(std::size_t first, std::size_t count) {
  std::size_t refused = 0;
  for (std::size_t k = first; k < first + count; ++k) {
    ++batches_.send_calls;
    if (::sendto(fd_, tx_buf_[k].data(), tx_len_[k], 0, reinterpret_cast<const sockaddr*>(&tx_to_[k].storage),
                 tx_to_[k].length) < 0) {
      ++refused;
    }
  }
  return refused;
}

}  // namespace ncgw::gateway
