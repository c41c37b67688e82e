// The `plain` transport core: unreliable UDP encapsulation of IP packets, sans-I/O.
// Packets are queued in bounded rings; a full ring drops at the tunnel entrance and counts it.
#pragma once
#include <cstdint>

#include "transports/common/core.h"
#include "transports/common/packet_ring.h"
#include "transports/plain/header.h"

namespace ncgw::plain {

// Settings of one plain tunnel endpoint.
struct PlainCoreSettings {
  std::uint32_t session_id = 1;         // both gateways of a tunnel use the same id
  std::size_t max_datagram = 1472;      // largest UDP payload the underlay carries unfragmented
  std::size_t send_queue_packets = 512; // packets waiting for poll_transmit
  std::size_t deliver_queue_packets = 512;
  transport::Duration keepalive_interval = std::chrono::seconds(5);  // zero: never
};

// Counters of a plain core (all monotonic).
struct PlainCounters {
  std::uint64_t tx_packets = 0, tx_bytes = 0;         // IP packets put on the wire
  std::uint64_t rx_packets = 0, rx_bytes = 0;         // IP packets received for delivery
  std::uint64_t keepalives_sent = 0, keepalives_received = 0;
  std::uint64_t drop_entrance_full = 0;               // send() while the send queue was full
  std::uint64_t drop_too_big = 0;                     // send() of a packet above max_payload
  std::uint64_t drop_deliver_full = 0;                // arrivals while the deliver queue was full
  std::uint64_t drop_bad_session = 0;                 // valid header, other session id
  std::uint64_t drop_malformed = 0;                   // header failed to decode
};

// Unreliable tunnel core: what arrives is delivered, what is lost stays lost.
class PlainCore final : public transport::Core {
 public:
  explicit PlainCore(const PlainCoreSettings& settings);

  void on_datagram(std::span<const std::uint8_t> bytes, transport::TimePoint now) override;
  void on_timeout(transport::TimePoint now) override;
  transport::SendResult send(std::span<const std::uint8_t> ip_packet, transport::TimePoint now) override;
  std::optional<std::size_t> poll_transmit(std::span<std::uint8_t> out, transport::TimePoint now) override;
  std::optional<std::size_t> poll_deliver(std::span<std::uint8_t> out) override;
  std::optional<transport::TimePoint> next_deadline() const override;
  std::size_t max_payload() const override;
  std::vector<transport::StatEntry> stats() const override;

  // Typed counters (tests and the gateway read them directly).
  const PlainCounters& counters() const { return counters_; }

 private:
  PlainCoreSettings settings_;
  transport::PacketRing send_queue_;
  transport::PacketRing deliver_queue_;
  PlainCounters counters_;
  std::optional<transport::TimePoint> last_tx_;   // for keep-alive scheduling
  bool keepalive_due_ = false;
};

}  // namespace ncgw::plain
