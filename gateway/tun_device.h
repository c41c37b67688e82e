// The Linux TUN device: create or attach (IFF_TUN | IFF_NO_PI, and IFF_VNET_HDR with TSO and
// checksum offloads unless `tun.offload: off`), configure through netlink, and hand the
// non-blocking file descriptor to the event loop.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.h"
#include "gateway/packet_io.h"

namespace ncgw::gateway {

// An open TUN device with its addresses and kernel routes installed; undone by close(). The Linux
// TunIo: frames are read and written on its non-blocking descriptor.
class TunDevice final : public TunIo {
 public:
  // Opens /dev/net/tun and creates or attaches `cfg.name`; sets MTU, addresses, link up.
  // Throws std::system_error naming the step that failed.
  TunDevice(const config::TunConfig& cfg, std::uint32_t mtu);
  ~TunDevice() override;
  TunDevice(const TunDevice&) = delete;
  TunDevice& operator=(const TunDevice&) = delete;

  // Installs a kernel route for `prefix` through this device (removed by close()).
  void add_route(const config::Prefix& prefix);
  // Removes the installed routes; removes the device unless on_exit is keep; closes the fd.
  void close();

  int fd() const { return fd_; }                 // non-blocking descriptor for read/write
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

  int fd_ = -1;
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
