// TUN offloads (IFF_VNET_HDR): every frame read from or written to the TUN starts with the kernel's
// virtio_net_hdr. With TSO on, a read returns one TCP "super-packet" of up to 64 KiB whose segments
// the kernel has not cut (gso_type TCPV4/TCPV6, gso_size = payload bytes per segment) and, with
// checksum offload, whose TCP/UDP checksum is partial (flag NEEDS_CSUM: the field holds the
// pseudo-header sum; the sum from csum_start to the end is still to be added). The tunnel carries
// ordinary IP packets, so OffloadSplitter cuts super-packets into MTU-sized segments and completes
// every partial checksum before a packet enters a core. Pure functions over spans: no allocation
// per packet, no OS calls; the kernel's semantics are those of include/linux/virtio_net.h.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ncgw::gateway {

// The kernel's virtio_net_hdr ABI (include/uapi/linux/virtio_net.h, which C++ cannot include: it
// has a member named `class`). Ten bytes, in host byte order on a TUN device:
//   u8 flags, u8 gso_type, u16 hdr_len, u16 gso_size, u16 csum_start, u16 csum_offset.
inline constexpr std::size_t kVnetHeaderSize = 10;
inline constexpr std::uint8_t kVnetFlagNeedsCsum = 1;    // VIRTIO_NET_HDR_F_NEEDS_CSUM
inline constexpr std::uint8_t kVnetFlagDataValid = 2;    // VIRTIO_NET_HDR_F_DATA_VALID
inline constexpr std::uint8_t kVnetGsoNone = 0;          // VIRTIO_NET_HDR_GSO_NONE
inline constexpr std::uint8_t kVnetGsoTcpV4 = 1;         // VIRTIO_NET_HDR_GSO_TCPV4
inline constexpr std::uint8_t kVnetGsoUdp = 3;           // VIRTIO_NET_HDR_GSO_UDP (UFO, never asked for)
inline constexpr std::uint8_t kVnetGsoTcpV6 = 4;         // VIRTIO_NET_HDR_GSO_TCPV6
inline constexpr std::uint8_t kVnetGsoEcn = 0x80;        // VIRTIO_NET_HDR_GSO_ECN (CWR set on the first segment)

// The IP protocol number of TCP and the TCP flag bits the offload code reads or changes
// (RFC 9293 section 3.1; CWR: RFC 3168).
inline constexpr std::uint8_t kIpProtoTcp = 6;
inline constexpr std::uint8_t kTcpFin = 0x01, kTcpPsh = 0x08, kTcpAck = 0x10, kTcpCwr = 0x80;

// The fields of a virtio_net_hdr.
struct VnetHeader {
  std::uint8_t flags = 0;
  std::uint8_t gso_type = 0;
  std::uint16_t hdr_len = 0;
  std::uint16_t gso_size = 0;
  std::uint16_t csum_start = 0;
  std::uint16_t csum_offset = 0;
};

// Reads a header from the first kVnetHeaderSize bytes of `p`.
VnetHeader read_vnet_header(const std::uint8_t* p);
// Writes `h` into the first kVnetHeaderSize bytes of `p`.
void write_vnet_header(const VnetHeader& h, std::uint8_t* p);
// Largest TUN frame with offloads on: a 64 KiB super-packet plus the header.
inline constexpr std::size_t kMaxTunFrame = kVnetHeaderSize + 65535;
// Most segments one super-packet may be cut into (64 KiB of payload at a 256-byte MSS).
inline constexpr std::size_t kMaxSegments = 256;

// What OffloadSplitter::split made of a frame.
enum class SplitResult {
  packet,            // one packet (no GSO), checksum completed if it was partial
  segmented,         // a TCP super-packet cut into several packets
  bad_header,        // frame shorter than the header, unknown flags or GSO type, bad csum offsets
  bad_gso_packet,    // GSO frame whose IP/TCP headers do not match its GSO type or sizes
};

// Cuts TUN frames (virtio_net_hdr + packet) into the IP packets they stand for. One splitter per
// TUN reader; its output buffers are allocated once.
class OffloadSplitter {
 public:
  OffloadSplitter();

  // Splits `frame` (modified in place when a checksum is completed). On packet/segmented, the
  // packets are segments()[0..count()); they stay valid until the next call.
  SplitResult split(std::span<std::uint8_t> frame);
  std::size_t count() const { return count_; }
  std::span<const std::uint8_t> segment(std::size_t i) const { return segments_[i]; }

 private:
  // Cuts a TCP super-packet (`packet` past the header) into segments of `gso_size` payload bytes.
  SplitResult split_tcp(std::span<const std::uint8_t> packet, std::size_t gso_size, bool v6);

  std::vector<std::uint8_t> out_;                          // segments, one after the other
  std::array<std::span<const std::uint8_t>, kMaxSegments> segments_{};
  std::size_t count_ = 0;
};

// Completes a partial checksum: adds the one's-complement sum of packet[start..] to the 16-bit
// value at packet[start + offset] (which holds the pseudo-header sum) and stores the result.
// False if the offsets do not fit the packet.
bool complete_partial_checksum(std::span<std::uint8_t> packet, std::size_t start, std::size_t offset);

// Writes the TCP checksum of a whole IPv4/IPv6 TCP packet (no extension headers) into its header.
// False if the packet is not such a packet.
bool write_tcp_checksum(std::span<std::uint8_t> packet);

// The running (unfolded) sum of the TCP pseudo-header of `packet` (addresses, protocol, and
// `tcp_length`, the TCP header plus payload); `packet` holds at least its IP header.
std::uint32_t tcp_pseudo_header_sum(std::span<const std::uint8_t> packet, bool v6, std::size_t tcp_length);

// The header written before every packet sent to a TUN with IFF_VNET_HDR: no GSO, checksum
// complete (all zero).
inline constexpr std::array<std::uint8_t, kVnetHeaderSize> kPlainVnetHeader{};

}  // namespace ncgw::gateway
