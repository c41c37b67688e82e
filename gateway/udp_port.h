// One bound UDP socket of the gateway (one per transport kind), with batched receive and send
// through recvmmsg/sendmmsg on preallocated buffers: no allocation per datagram.
#pragma once
#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gateway/socket_address.h"

namespace ncgw::gateway {

// Largest datagram the gateway handles (jumbo IP packet plus any transport header).
inline constexpr std::size_t kMaxDatagram = 9216;
// Datagrams moved per recvmmsg/sendmmsg call.
inline constexpr std::size_t kBatch = 64;

// A bound, non-blocking UDP socket with batch buffers.
class UdpPort {
 public:
  // Binds `address`:`port` (IPv4 or IPv6 literal) with IP_PMTUDISC_DO and large buffers.
  // Throws std::system_error naming the address on failure.
  UdpPort(const config::IpAddress& address, std::uint16_t port);
  ~UdpPort();
  UdpPort(const UdpPort&) = delete;
  UdpPort& operator=(const UdpPort&) = delete;

  // Receives up to kBatch datagrams without blocking; returns how many (0 when none waits).
  std::size_t receive_batch();
  // Kernel receive time of the i-th datagram (SO_TIMESTAMPNS, CLOCK_REALTIME), in ns; 0 if absent.
  // Rate estimators (UDT's packet pairs) need per-datagram times, not one time per batch.
  std::int64_t received_realtime_ns(std::size_t i) const { return rx_realtime_ns_[i]; }
  // The i-th received datagram and its sender.
  std::span<const std::uint8_t> received(std::size_t i) const { return {rx_buf_[i].data(), rx_len_[i]}; }
  const SocketAddress& sender(std::size_t i) const { return rx_from_[i]; }
  // True if the i-th datagram was larger than kMaxDatagram (cut by the kernel: to be dropped).
  bool truncated(std::size_t i) const { return rx_truncated_[i]; }

  // A free send slot to fill (kMaxDatagram bytes), or an empty span if the batch is full.
  std::span<std::uint8_t> send_slot();
  // Commits the slot returned by send_slot() with `length` bytes for `to`; flushes when full.
  void commit_send(std::size_t length, const SocketAddress& to);
  // Sends every committed datagram (sendmmsg); returns the number the kernel refused.
  std::size_t flush();

  int fd() const { return fd_; }
  const std::string& local_name() const { return local_name_; }
  std::uint64_t send_errors() const { return send_errors_; }   // datagrams the kernel refused
  std::uint64_t receive_errors() const { return receive_errors_; }
  std::uint64_t truncated() const { return truncated_; }   // datagrams cut by the kernel (MSG_TRUNC)

 private:
  int fd_ = -1;
  std::string local_name_;
  std::vector<std::array<std::uint8_t, kMaxDatagram>> rx_buf_, tx_buf_;
  std::array<std::size_t, kBatch> rx_len_{};
  std::array<SocketAddress, kBatch> rx_from_{};
  std::array<std::int64_t, kBatch> rx_realtime_ns_{};
  std::array<bool, kBatch> rx_truncated_{};
  std::array<SocketAddress, kBatch> tx_to_{};
  std::array<std::size_t, kBatch> tx_len_{};
  std::size_t tx_count_ = 0;
  std::uint64_t send_errors_ = 0;
  std::uint64_t receive_errors_ = 0;
  std::uint64_t truncated_ = 0;
};

}  // namespace ncgw::gateway
