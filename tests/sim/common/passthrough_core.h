// A trivial transport::Core for testing the simulator: every accepted packet becomes one datagram,
// every datagram one delivery; no reliability, no timers. Bounded send and delivery queues.
#pragma once
#include <deque>
#include <vector>

#include "transports/common/core.h"

namespace ncgw::sim {

// Loopback core: send() -> poll_transmit() -> link -> on_datagram() -> poll_deliver().
class PassthroughCore : public transport::Core {
 public:
  // Holds at most `queue_packets` unsent packets; send() refuses beyond that.
  explicit PassthroughCore(std::size_t queue_packets = 64) : limit_(queue_packets) {}

  void on_datagram(std::span<const std::uint8_t> bytes, transport::TimePoint now) override;
  void on_timeout(transport::TimePoint) override {}
  transport::SendResult send(std::span<const std::uint8_t> ip_packet, transport::TimePoint now) override;
  std::optional<std::size_t> poll_transmit(std::span<std::uint8_t> out, transport::TimePoint now) override;
  std::optional<std::size_t> poll_deliver(std::span<std::uint8_t> out) override;
  std::optional<transport::TimePoint> next_deadline() const override { return std::nullopt; }
  std::size_t max_payload() const override { return 1500; }
  std::vector<transport::StatEntry> stats() const override;

  // Times at which datagrams arrived, in order.
  const std::vector<transport::TimePoint>& arrivals() const { return arrivals_; }

 private:
  std::size_t limit_;
  std::deque<std::vector<std::uint8_t>> to_send_, to_deliver_;
  std::vector<transport::TimePoint> arrivals_;
  std::uint64_t refused_ = 0;
};

}  // namespace ncgw::sim
