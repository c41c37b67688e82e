// In-memory implementations of the data path's I/O seams (gateway/packet_io.h) for the simulator
// tier: a TUN whose kernel side is the test, and a UDP port whose network is the simulator.
#pragma once
#include <cstdint>
#include <deque>
#include <span>
#include <vector>

#include "gateway/packet_io.h"
#include "gateway/socket_address.h"
#include "gateway/udp_port.h"

namespace ncgw::sim {

// A TUN device: the test injects what the kernel would route into it and reads what the gateway
// writes to it. With `vnet`, frames each way carry a virtio_net_hdr as a TUN with offloads does.
class MemoryTun final : public gateway::TunIo {
 public:
  explicit MemoryTun(bool vnet) : vnet_(vnet) {}
  // A packet the kernel hands to the TUN (with `vnet`, behind a header without GSO or checksum
  // request); `frame` as is when the test builds the header itself.
  void inject(std::span<const std::uint8_t> packet);
  // A frame exactly as given (a test's own virtio_net_hdr, or a malformed one).
  void inject_frame(std::span<const std::uint8_t> frame) { input_.emplace_back(frame.begin(), frame.end()); }
  // Frames injected and not read yet.
  std::size_t pending() const { return input_.size(); }
  // Frames the gateway wrote, in order.
  const std::vector<std::vector<std::uint8_t>>& written() const { return written_; }

  std::ptrdiff_t read_frame(std::span<std::uint8_t> buffer) override;
  int write_frame(std::span<const std::uint8_t> head, std::span<const std::uint8_t> body) override;
  bool vnet_header() const override { return vnet_; }

 private:
  bool vnet_;
  std::deque<std::vector<std::uint8_t>> input_;
  std::vector<std::vector<std::uint8_t>> written_;
};

// A datagram a port handed to the network.
struct SentDatagram {
  gateway::SocketAddress to;
  std::vector<std::uint8_t> bytes;
};

// A UDP port bound to `local`: the simulator puts arrivals in with arrive() and takes what the
// gateway sent with take_sent().
class MemoryPort final : public gateway::DatagramPort {
 public:
  explicit MemoryPort(const gateway::SocketAddress& local)
      : local_(local), slots_(kSlots, std::vector<std::uint8_t>(gateway::kMaxDatagram)) {}
  // The address it is bound to.
  const gateway::SocketAddress& local() const { return local_; }
  // A datagram from `from` waits for the next receive_batch().
  void arrive(std::span<const std::uint8_t> bytes, const gateway::SocketAddress& from);
  // Datagrams waiting to be received.
  std::size_t waiting() const { return waiting_.size(); }
  // Removes and returns what the gateway committed since the last call.
  std::vector<SentDatagram> take_sent();

  std::size_t receive_batch() override;
  bool batch_was_full() const override { return batch_full_; }
  std::span<const std::uint8_t> received(std::size_t i) const override { return batch_[i].bytes; }
  const gateway::SocketAddress& sender(std::size_t i) const override { return batch_[i].from; }
  bool truncated(std::size_t) const override { return false; }
  std::int64_t received_realtime_ns(std::size_t) const override { return 0; }
  std::span<std::uint8_t> send_slot() override { return slots_[0]; }
  void commit_send(std::size_t length, const gateway::SocketAddress& to) override;
  // kSlots slots at a time (fewer than the UDP port's, so that batches also end mid-drain here).
  std::size_t send_slots(std::span<std::span<std::uint8_t>> out) override;
  void commit_sends(std::span<const std::size_t> lengths, const gateway::SocketAddress& to) override;
  std::size_t flush() override { return 0; }

 private:
  struct Arrival {
    gateway::SocketAddress from;
    std::vector<std::uint8_t> bytes;
  };
  static constexpr std::size_t kSlots = 8;
  gateway::SocketAddress local_;
  std::vector<std::vector<std::uint8_t>> slots_;
  std::deque<Arrival> waiting_;
  std::vector<Arrival> batch_;
  bool batch_full_ = false;
  std::vector<SentDatagram> sent_;
};

}  // namespace ncgw::sim
