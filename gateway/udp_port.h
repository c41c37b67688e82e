// One bound UDP socket of the gateway (one per transport kind), with batched receive and send
// through recvmmsg/sendmmsg on preallocated buffers: no allocation per datagram. Runs of
// equal-size datagrams to one address leave as one UDP GSO send (UDP_SEGMENT) while the kernel
// takes them; with `gro`, the kernel may hand over several datagrams of one sender as one buffer
// (UDP_GRO), which is cut again here: callers see single datagrams either way.
#pragma once
#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gateway/packet_io.h"
#include "gateway/socket_address.h"

namespace ncgw::gateway {

// Largest datagram the gateway handles (jumbo IP packet plus any transport header).
inline constexpr std::size_t kMaxDatagram = 9216;
// Datagrams moved per recvmmsg/sendmmsg call (messages per recvmmsg without GRO).
inline constexpr std::size_t kBatch = 64;
// Messages per recvmmsg with GRO: each may hold up to 64 datagrams in 64 KiB.
inline constexpr std::size_t kGroMessages = 16;
// Most datagrams one receive_batch() returns.
inline constexpr std::size_t kMaxReceived = kGroMessages * 64;
// Most datagrams in one GSO send (the kernel's UDP_MAX_SEGMENTS), and most bytes.
inline constexpr std::size_t kMaxGsoSegments = 64;
inline constexpr std::size_t kMaxGsoBytes = 65000;

// What a port does with datagrams the kernel cannot take now (its send buffer is full).
enum class WhenBlocked : std::uint8_t {
  drop,  // count them as refused and go on (the daemon: its transports recover losses)
  hold,  // keep them queued, in order; blocked() says so until a flush gets them out
};

// How a port shares its local address with other sockets of the same gateway (gateway.workers >
// 1: each peer's datagrams reach the worker serving it on a socket of its own).
struct PortSharing {
  bool reuse_address = false;                 // SO_REUSEADDR: other sockets may bind the same address
  std::optional<SocketAddress> connected_to;  // connect(): this socket then receives only that peer's datagrams
};

// Which UDP offloads a port uses.
enum class UdpOffloads : std::uint8_t {
  none,       // one datagram per message each way
  send_only,  // runs of datagrams sent as UDP GSO; no GRO on receive, so that each datagram keeps
              // its own arrival time (UDT: its receiver measures the link capacity from packet pairs;
              // docs/datapath.md "UDP: GSO and GRO")
  both,       // GSO on send, UDP GRO on receive
};

// A bound, non-blocking UDP socket with batch buffers: the Linux DatagramPort.
class UdpPort final : public DatagramPort {
 public:
  // Binds `local` (port 0: any free port) with IP_PMTUDISC_DO and large buffers, sending runs as
  // GSO and asking for UDP GRO as `offloads` says (GSO turns itself off if the kernel refuses it).
  // With `sharing`, binds with SO_REUSEADDR and connects as it says (the kernel hands a datagram to
  // the connected socket of its sender before an unconnected one). Throws std::system_error
  // naming the address on failure.
  explicit UdpPort(const SocketAddress& local, UdpOffloads offloads = UdpOffloads::none,
                   WhenBlocked when_blocked = WhenBlocked::drop,
                   const PortSharing& sharing = {});
  // The same for `address`:`port` from a configuration.
  UdpPort(const transport::IpAddress& address, std::uint16_t port, UdpOffloads offloads = UdpOffloads::none)
      : UdpPort(SocketAddress::from(address, port), offloads) {}
  ~UdpPort() override;
  UdpPort(const UdpPort&) = delete;
  UdpPort& operator=(const UdpPort&) = delete;

  // Receives what waits, without blocking; returns how many datagrams (0 when none waits; at most
  // kMaxReceived).
  std::size_t receive_batch() override;
  // True if the last receive_batch() filled every message slot (more may be waiting).
  bool batch_was_full() const override { return rx_messages_ == rx_capacity_; }
  // Kernel receive time of the i-th datagram (SO_TIMESTAMPNS, CLOCK_REALTIME), in ns; 0 if absent.
  // Rate estimators (UDT's packet pairs) need per-datagram times, not one time per batch (datagrams
  // merged by GRO share one).
  std::int64_t received_realtime_ns(std::size_t i) const override { return rx_realtime_ns_[rx_[i].message]; }
  // The i-th received datagram and its sender.
  std::span<const std::uint8_t> received(std::size_t i) const override { return {rx_[i].data, rx_[i].length}; }
  const SocketAddress& sender(std::size_t i) const override { return rx_from_[rx_[i].message]; }
  // True if the i-th datagram was larger than kMaxDatagram (cut by the kernel: to be dropped).
  bool truncated(std::size_t i) const override { return rx_truncated_[rx_[i].message]; }

  // A free send slot to fill (kMaxDatagram bytes), or an empty span while datagrams are held
  // (WhenBlocked::hold) and fill every slot.
  std::span<std::uint8_t> send_slot() override;
  // Commits the slot returned by send_slot() with `length` bytes for `to`; flushes when full.
  void commit_send(std::size_t length, const SocketAddress& to) override;
  // The free slots of the send batch (flushing first when none is free), each kMaxDatagram bytes.
  std::size_t send_slots(std::span<std::span<std::uint8_t>> out) override;
  // Commits them in order for `to`; flushes when the batch is full.
  void commit_sends(std::span<const std::size_t> lengths, const SocketAddress& to) override;
  // Sends every committed datagram (sendmmsg); returns the number the kernel refused. With
  // WhenBlocked::hold, those it could not take for lack of buffer space stay queued instead.
  std::size_t flush() override;
  // True while datagrams are held (WhenBlocked::hold): wait until the socket is writable, flush.
  bool blocked() const { return held_; }

  int fd() const { return fd_; }
  const std::string& local_name() const { return local_name_; }
  // The bound port (the one the kernel chose when asked for port 0).
  std::uint16_t local_port() const { return local_port_; }
  std::uint64_t send_errors() const { return send_errors_; }   // datagrams the kernel refused
  std::uint64_t receive_errors() const { return receive_errors_; }
  std::uint64_t truncated() const { return truncated_; }   // datagrams cut by the kernel (MSG_TRUNC)
  // What the batching achieved: system calls and datagrams each way, GSO sends and GRO receives
  // (messages that held more than one datagram); gso() is false once the kernel refused GSO.
  struct BatchCounters {
    std::uint64_t send_calls = 0, datagrams_sent = 0, gso_sends = 0;
    std::uint64_t receive_calls = 0, datagrams_received = 0, gro_receives = 0;
  };
  const BatchCounters& batches() const { return batches_; }
  bool gso() const { return gso_; }
  bool gro() const { return gro_; }

 private:
  // One received datagram: where it lies and which message (sender, time) it came in.
  struct Received {
    const std::uint8_t* data = nullptr;
    std::size_t length = 0;
    std::size_t message = 0;
  };
  // Cuts message `m` of `length` bytes (GRO segment size `segment`, 0: one datagram) into rx_.
  void add_received(std::size_t m, std::size_t length, std::size_t segment);
  // Sends messages [from, to) of a prepared sendmmsg array; returns datagrams refused. A GSO
  // message the kernel refuses turns GSO off and is sent again datagram by datagram.
  std::size_t send_messages(mmsghdr* msgs, const std::size_t* first, const std::size_t* count, std::size_t n);
  // Sends committed datagrams [first, first + count) one message each; returns datagrams refused.
  std::size_t send_singly(std::size_t first, std::size_t count);
  // Moves committed datagrams [from, tx_count_) to the front of the send slots (WhenBlocked::hold).
  void keep_unsent(std::size_t from);

  int fd_ = -1;
  std::string local_name_;
  std::uint16_t local_port_ = 0;
  WhenBlocked when_blocked_ = WhenBlocked::drop;
  bool held_ = false;
  std::size_t held_from_ = 0;   // the first datagram the last send could not hand over (hold mode)
  bool gso_ = false;
  bool gro_ = false;
  std::size_t rx_stride_ = kMaxDatagram;   // bytes per receive message: 64 KiB with GRO
  std::size_t rx_capacity_ = kBatch;       // messages per recvmmsg
  std::size_t rx_messages_ = 0;            // messages the last recvmmsg returned
  std::vector<std::uint8_t> rx_buf_;
  std::vector<std::array<std::uint8_t, kMaxDatagram>> tx_buf_;
  std::array<Received, kMaxReceived> rx_{};
  std::array<SocketAddress, kBatch> rx_from_{};
  std::array<std::int64_t, kBatch> rx_realtime_ns_{};
  std::array<bool, kBatch> rx_truncated_{};
  std::size_t rx_count_ = 0;
  BatchCounters batches_;
  std::array<SocketAddress, kBatch> tx_to_{};
  std::array<std::size_t, kBatch> tx_len_{};
  std::size_t tx_count_ = 0;
  std::uint64_t send_errors_ = 0;
  std::uint64_t receive_errors_ = 0;
  std::uint64_t truncated_ = 0;
};

}  // namespace ncgw::gateway
