// The two I/O seams of the data path (datapath.h): the TUN side and the UDP side. Each is a small
// interface with one Linux implementation (TunDevice, UdpPort) and in-memory ones in the simulator
// tier (tests/sim/gateway), which runs whole data paths in virtual time without root.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "gateway/socket_address.h"

namespace ncgw::gateway {

// Frames to and from the TUN side. A frame is one IP packet, or, when vnet_header() is true, a
// virtio_net_hdr followed by an IP packet that may be a GSO super-packet (tun_offload.h).
class TunIo {
 public:
  virtual ~TunIo() = default;
  // Reads one waiting frame into `buffer` without blocking: its length, 0 when none waits, or
  // -errno on failure.
  virtual std::ptrdiff_t read_frame(std::span<std::uint8_t> buffer) = 0;
  // Writes `head` followed by `body` as one frame (head may be empty): 0, or -errno on failure.
  virtual int write_frame(std::span<const std::uint8_t> head, std::span<const std::uint8_t> body) = 0;
  // True when every frame each way starts with a virtio_net_hdr.
  virtual bool vnet_header() const = 0;
};

// Datagrams to and from the underlay, in batches: receive_batch() fills the receive side, the
// accessors read datagram i of it; send_slot() / commit_send() fill the send side one datagram at
// a time, send_slots() / commit_sends() a batch at a time, and flush() hands it over.
// Implementations keep their buffers: nothing is allocated per datagram.
class DatagramPort {
 public:
  virtual ~DatagramPort() = default;
  // Takes what waits, without blocking; returns how many datagrams.
  virtual std::size_t receive_batch() = 0;
  // True if the last receive_batch() may have left more waiting.
  virtual bool batch_was_full() const = 0;
  // The i-th received datagram, its sender, and whether it was cut (too large: to be dropped).
  virtual std::span<const std::uint8_t> received(std::size_t i) const = 0;
  virtual const SocketAddress& sender(std::size_t i) const = 0;
  virtual bool truncated(std::size_t i) const = 0;
  // Receive time of the i-th datagram on CLOCK_REALTIME in ns; 0 if unknown.
  virtual std::int64_t received_realtime_ns(std::size_t i) const = 0;
  // A free send slot to fill, or an empty span when none is free.
  virtual std::span<std::uint8_t> send_slot() = 0;
  // Commits the slot last returned by send_slot() with `length` bytes for `to`.
  virtual void commit_send(std::size_t length, const SocketAddress& to) = 0;
  // Up to out.size() free send slots, in order, into `out`; returns how many (0 while none is
  // free). The default offers the one slot of send_slot().
  virtual std::size_t send_slots(std::span<std::span<std::uint8_t>> out) {
    if (out.empty()) return 0;
    out[0] = send_slot();
    return out[0].empty() ? 0 : 1;
  }
  // Commits the first lengths.size() slots of the last send_slots() for `to`, in order.
  virtual void commit_sends(std::span<const std::size_t> lengths, const SocketAddress& to) {
    for (const std::size_t length : lengths) commit_send(length, to);
  }
  // Hands every committed datagram over; returns how many were refused.
  virtual std::size_t flush() = 0;
};

}  // namespace ncgw::gateway
