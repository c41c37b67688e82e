// The Linux TUN device: create or attach (IFF_TUN | IFF_NO_PI, and IFF_VNET_HDR with TSO and
// checksum offloads unless `tun.offload: off`; IFF_MULTI_QUEUE with one queue per worker when
// there are several), configure through netlink, and hand the non-blocking file descriptors to
// the event loops.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.h"
#include "gateway/packet_io.h"

namespace ncgw::gateway {

// One queue of a TUN device: a non-blocking descriptor frames are read from and written to.
class TunQueue final : public TunIo {
 public:
  TunQueue(int fd, bool vnet_header) : fd_(fd), vnet_header_(vnet_header) {}
  int fd() const { return fd_; }
  bool vnet_header() const override { return vnet_header_; }
  // read(2) of one frame; -errno on failure, 0 when nothing waits (EAGAIN).
  std::ptrdiff_t read_frame(std::span<std::uint8_t> buffer) override;
  // writev(2) of head and body; -errno on failure.
  int write_frame(std::span<const std::uint8_t> head, std::span<const std::uint8_t> body) override;

 private:
  int fd_;
  bool vnet_header_;
};

// An open TUN device with its addresses and kernel routes installed; undone by close(). The Linux
// TunIo: frames are read and written on its non-blocking descriptor.
class TunDevice final : public TunIo {
 public:
  // Opens /dev/net/tun and creates or attaches `cfg.name` with `queues` queues (more than one:
  // IFF_MULTI_QUEUE; a device that exists without it is attached with one queue, logged); sets
  // MTU, addresses, link up. Throws std::system_error naming the step that failed.
  TunDevice(const config::TunConfig& cfg, std::uint32_t mtu, std::size_t queues = 1);
  ~TunDevice() override;
  TunDevice(const TunDevice&) = delete;
  TunDevice& operator=(const TunDevice&) = delete;

  // Installs a kernel route for `prefix` through this device (removed by close()).
  void add_route(const config::Prefix& prefix);
  // Removes the installed routes; removes the device unless on_exit is keep; closes the fd.
  void close();

  int fd() const { return fd_; }                 // non-blocking descriptor of queue 0
  // The queues opened (at least one; queue 0 is this device's own TunIo).
  std::size_t queues() const { return queues_.size(); }
  TunQueue& queue(std::size_t i) { return queues_.at(i); }
  int ifindex() const { return ifindex_; }
  const std::string& name() const { return name_; }
  std::uint32_t mtu() const { return mtu_; }
  bool created() const { return created_; }      // false when an existing device was attached
  // True when every read and write carries a virtio_net_hdr (tun_offload.h).
  bool vnet_header() const override { return vnet_header_; }
  // read(2) of one frame; -errno on failure, 0 when nothing waits (EAGAIN).
  std::ptrdiff_t read_frame(std::span<std::uint8_t> buffer) override;
  // writev(2) of head and body; -errno on failure.
  int write_frame(std::span<const std::uint8_t> head, std::span<const std::uint8_t> body) override;
  // The offloads the kernel accepted: "tso4,tso6,csum", or "off".
  const std::string& offload_state() const { return offload_state_; }

 private:
  // Asks for TSO4, TSO6 and checksum offload (TUNSETOFFLOAD); logs and runs without if refused.
  void enable_offloads();
  // TUNSETIFF on a new descriptor with `flags`; the descriptor, or -1 with errno set.
  int attach_queue(short flags);
  // Opens queues 1 .. want-1 on the device of queue 0 (IFF_MULTI_QUEUE).
  void open_more_queues(std::size_t want, short flags);

  int fd_ = -1;
  std::vector<TunQueue> queues_;   // queue 0 is fd_
  int ifindex_ = 0;
  std::string name_;
  std::uint32_t mtu_;
  bool created_ = false;
  bool vnet_header_ = false;
  std::string offload_state_ = "off";
  config::TunOnExit on_exit_;
  std::vector<config::Prefix> routes_;
};

}  // namespace ncgw::gateway
