// The write side of TUN offloads: consecutive TCP segments of one flow, delivered by a tunnel in
// order, are merged into one super-packet written to the TUN with a virtio_net_hdr that asks the
// kernel to cut it again (GSO), as a NIC's receive offload (GRO) would hand them up. The kernel
// then moves one large buffer through routing and the next hop instead of dozens of small ones.
// Pure: a preallocated buffer, no OS calls.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ncgw::gateway {

// Most segments merged into one frame (the kernel's UDP_MAX_SEGMENTS; full-size segments reach
// 64 KiB first).
inline constexpr std::size_t kMaxMergedSegments = 64;

// Merges in-order TCP segments into one virtio_net_hdr frame (tun_offload.h).
class TunCoalescer {
 public:
  TunCoalescer();

  // Takes `packet` into the pending frame: starts one when none is pending, or appends when the
  // packet continues the pending flow (same addresses, ports, IP and TCP header fields and options;
  // the next sequence number; a payload no longer than the first; only ACK and PSH flags).
  // False when it does not fit: write out frame(), clear(), and add it again; false on an empty
  // coalescer means the packet is not a plain TCP data segment and goes to the TUN alone.
  bool add(std::span<const std::uint8_t> packet);
  bool empty() const { return length_ == 0; }
  std::size_t segments() const { return segments_; }
  // The pending frame, header finished (GSO only when it holds more than one segment); valid
  // until the next add() or clear().
  std::span<const std::uint8_t> frame();
  void clear();

 private:
  // Starts a pending frame with `packet` if it is a TCP data segment that may be merged.
  bool start(std::span<const std::uint8_t> packet);
  // True if `packet` continues the pending frame.
  bool continues(std::span<const std::uint8_t> packet) const;

  std::vector<std::uint8_t> buf_;   // virtio_net_hdr, then the merged packet
  std::size_t length_ = 0;          // bytes of packet in buf_ after the header (0: nothing pending)
  std::size_t ip_len_ = 0, headers_ = 0;   // IP header length, IP + TCP header length
  std::size_t gso_size_ = 0;        // payload of the first segment: every segment but the last
  std::size_t last_payload_ = 0;    // payload of the last segment appended
  std::size_t segments_ = 0;
  bool v6_ = false;
  bool pushed_ = false;             // the last segment had PSH: nothing may follow it
};

}  // namespace ncgw::gateway
