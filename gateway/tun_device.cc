#include "gateway/tun_device.h"

#include <fcntl.h>
#include <net/if.h>
#include <linux/if_tun.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <system_error>

#include <spdlog/spdlog.h>

#include "gateway/netlink.h"
#include "gateway/tun_offload.h"

namespace ncgw::gateway {

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

}  // namespace

int TunDevice::attach_queue(short flags) {
  const int fd = ::open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) fail("open /dev/net/tun");
  ifreq ifr{};
  ifr.ifr_flags = flags;
  std::strncpy(ifr.ifr_name, name_.c_str(), IFNAMSIZ - 1);
  if (::ioctl(fd, TUNSETIFF, &ifr) < 0) {
    const int err = errno;
    ::close(fd);
    errno = err;
    return -1;
  }
  name_ = ifr.ifr_name;
  vnet_header_ = (ifr.ifr_flags & IFF_VNET_HDR) != 0;
  return fd;
}

TunDevice::TunDevice(const config::TunConfig& cfg, std::uint32_t mtu, std::size_t queues)
    : name_(cfg.name), mtu_(mtu), on_exit_(cfg.on_exit) {
  created_ = if_nametoindex(cfg.name.c_str()) == 0;
  short flags = IFF_TUN | IFF_NO_PI;
  if (cfg.offload == config::TunOffload::automatic) flags |= IFF_VNET_HDR;
  if (queues > 1) {
    fd_ = attach_queue(static_cast<short>(flags | IFF_MULTI_QUEUE));
    if (fd_ < 0 && errno == EINVAL && !created_) {
      spdlog::warn("tun {}: the existing device has a single queue (created without IFF_MULTI_QUEUE); one "
                   "worker reads it, every worker writes it", cfg.name);
      queues = 1;
    } else {
      flags = static_cast<short>(flags | IFF_MULTI_QUEUE);
    }
  }
  if (fd_ < 0) fd_ = attach_queue(flags);
  if (fd_ < 0) fail("TUNSETIFF " + cfg.name + (created_ ? " (create)" : " (attach)"));
  queues_.emplace_back(fd_, vnet_header_);
  if (vnet_header_) enable_offloads();
  open_more_queues(queues, flags);
  if (cfg.on_exit == config::TunOnExit::keep && ::ioctl(fd_, TUNSETPERSIST, 1) < 0) {
    fail("TUNSETPERSIST " + name_);
  }
  ifindex_ = static_cast<int>(if_nametoindex(name_.c_str()));
  Netlink nl;
  for (const auto& a : cfg.addresses) nl.add_address(ifindex_, a);
  nl.set_link_up(ifindex_, mtu_);
}

void TunDevice::open_more_queues(std::size_t want, short flags) {
  while (queues_.size() < want) {
    const int fd = attach_queue(flags);
    if (fd < 0) fail("TUNSETIFF " + name_ + " (queue " + std::to_string(queues_.size()) + ")");
    queues_.emplace_back(fd, vnet_header_);
  }
}

void TunDevice::enable_offloads() {
  const int size = static_cast<int>(kVnetHeaderSize);
  if (::ioctl(fd_, TUNSETVNETHDRSZ, &size) < 0) fail("TUNSETVNETHDRSZ " + name_);
  const unsigned offloads = TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6;
  if (::ioctl(fd_, TUNSETOFFLOAD, offloads) == 0) {
    offload_state_ = "tso4,tso6,csum";
    return;
  }
  spdlog::warn("tun {}: the kernel refused TSO/checksum offloads ({}); reading one packet at a time", name_,
               std::strerror(errno));
  ::ioctl(fd_, TUNSETOFFLOAD, 0u);
}

TunDevice::~TunDevice() {
  try {
    close();
  } catch (...) {
    // Destructors do not throw; close() already logged nothing, the fd is released below.
  }
  for (auto& q : queues_) {
    if (q.fd() >= 0) ::close(q.fd());
  }
  queues_.clear();
}

std::ptrdiff_t TunDevice::read_frame(std::span<std::uint8_t> buffer) {
  return queues_.empty() ? -EBADF : queues_.front().read_frame(buffer);
}

int TunDevice::write_frame(std::span<const std::uint8_t> head, std::span<const std::uint8_t> body) {
  return queues_.empty() ? -EBADF : queues_.front().write_frame(head, body);
}

std::ptrdiff_t TunQueue::read_frame(std::span<std::uint8_t> buffer) {
  const ssize_t n = ::read(fd_, buffer.data(), buffer.size());
  if (n >= 0) return n;
  return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -errno;
}

int TunQueue::write_frame(std::span<const std::uint8_t> head, std::span<const std::uint8_t> body) {
  std::array<iovec, 2> iov{{{const_cast<std::uint8_t*>(head.data()), head.size()},
                            {const_cast<std::uint8_t*>(body.data()), body.size()}}};
  const bool with_head = !head.empty();
  if (::writev(fd_, iov.data() + (with_head ? 0 : 1), with_head ? 2 : 1) < 0) return -errno;
  return 0;
}

void TunDevice::add_route(const config::Prefix& prefix) {
  Netlink().add_route(ifindex_, prefix);
  routes_.push_back(prefix);
}

void TunDevice::close() {
  if (fd_ < 0) return;
  Netlink nl;
  for (const auto& r : routes_) nl.delete_route(ifindex_, r);
  routes_.clear();
  if (on_exit_ == config::TunOnExit::remove && !created_) {
    ::ioctl(fd_, TUNSETPERSIST, 0);  // an attached persistent device goes away with us
  }
  for (auto& q : queues_) ::close(q.fd());
  queues_.clear();
  fd_ = -1;
}

}  // namespace ncgw::gateway
