// The `plain` transport core: unreliable UDP encapsulation of IP packets, sans-I/O.
// Packets are queued in bounded rings; a full ring drops at the tunnel entrance and counts it.
#pragma once
#include <cstdint>

#include "transports/common/core.h"
#include "transports/common/packet_ring.h"
#include "transports/plain/header.h"
#include "transports/plain/sequence.h"

namespace ncgw::plain {

// Settings of one plain tunnel endpoint.
struct PlainCoreSettings {
  std::uint32_t session_id = 1;         // both gateways of a tunnel use the same id
  std::size_t max_datagram = 1472;      // largest UDP payload the underlay carries unfragmented
  std::size_t send_queue_packets = 512; // packets waiting for poll_transmit
  std::size_t deliver_queue_packets = 512;
  transport::Duration keepalive_interval = std::chrono::seconds(1);  // zero: never
  // Data sent after this long without any datagram from the peer is counted as tx_while_peer_silent
  // (probably lost: the peer is down or cut off). A live idle peer sends a keep-alive every interval,
  // so three intervals tolerate two lost keep-alives in a row.
  transport::Duration peer_silence_timeout = std::chrono::seconds(3);
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
  std::uint64_t tx_while_peer_silent = 0;             // data sent after peer_silence_timeout of silence
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
  // Receive sequence accounting (rx_lost, reordering, duplicates, resyncs).
  const SeqCounters& seq_counters() const { return rx_seq_.counters(); }

 private:
  PlainCoreSettings settings_;
  transport::PacketRing send_queue_;
  transport::PacketRing deliver_queue_;
  PlainCounters counters_;
  bool peer_silent(transport::TimePoint now) const;
  void stamp_header(Header& h, transport::TimePoint now);

  std::optional<transport::TimePoint> last_tx_;   // for keep-alive scheduling
  std::optional<transport::TimePoint> last_rx_;   // last valid datagram from the peer
  std::optional<transport::TimePoint> first_tx_;  // silence counts from here until the peer speaks
  bool keepalive_due_ = false;
  std::uint16_t tx_seq_ = 0;   // sequence number of the next datagram
  SeqTracker rx_seq_;
};

}  // namespace ncgw::plain
