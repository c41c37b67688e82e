// The gateway's UDT transport: one UDT connection to one peer gateway, message mode, one IP packet
// per message, delivered in order (transport::Core). Connects as caller, listener or rendezvous and
// connects again when the connection breaks (peer restart, long silence).
#pragma once
#include <cstdint>
#include <optional>

#include "transports/common/core.h"
#include "transports/udt/endpoint.h"

namespace ncgw::udt {

// Which side opens the connection.
enum class TunnelRole : std::uint8_t { caller, listener, rendezvous };

// Settings of a UdtTunnelCore (gateway/core_factory.cc maps config::UdtSettings onto this).
struct UdtTunnelSettings {
  TunnelRole role = TunnelRole::caller;
  PeerAddress peer;                    // the peer gateway's UDP address (every datagram is from/to it)
  ConnectionSettings conn;             // socket type is forced to message mode (dgram)
  std::uint64_t seed = 1;              // socket ids, ISN, cookie secret, CC randomisation
  std::int64_t reconnect_delay_us = 1'000'000;  // pause between failed connection attempts
  int message_ttl_ms = -1;             // IP packets older than this are dropped, not retransmitted
};

// Default settings for a tunnel: message mode, 10 s peer-silence limit, 50 ms NAK floor, one
// CUDTCC decrease per congestion epoch.
UdtTunnelSettings default_tunnel_settings();

class UdtTunnelCore final : public transport::Core {
 public:
  // A core that starts connecting (caller/rendezvous) or waiting (listener) at the first event.
  explicit UdtTunnelCore(const UdtTunnelSettings& s);

  void on_datagram(std::span<const std::uint8_t> bytes, transport::TimePoint now) override;
  void on_timeout(transport::TimePoint now) override;
  transport::SendResult send(std::span<const std::uint8_t> ip_packet, transport::TimePoint now) override;
  std::optional<std::size_t> poll_transmit(std::span<std::uint8_t> out, transport::TimePoint now) override;
  std::optional<std::size_t> poll_deliver(std::span<std::uint8_t> out) override;
  std::optional<transport::TimePoint> next_deadline() const override;
  std::size_t max_payload() const override;
  std::vector<transport::StatEntry> stats() const override;

  // The current connection (null between connections).
  const Connection* connection() const;
  // Connections established so far (1 + reconnects).
  std::uint64_t sessions() const { return sessions_; }

 private:
  // Paper 000 eq. 15 from the connection's measurements, capped by the MSS in use.
  double mss_rule_bytes(const ConnStats& st) const;
  void maintain(transport::TimePoint now);
  void start_connection(transport::TimePoint now);
  void drop_current();

  UdtTunnelSettings s_;
  Endpoint ep_;
  std::optional<std::int32_t> current_;
  bool counted_ = false;  // current_ already counted in sessions_
  bool started_ = false;
  std::int64_t reconnect_at_ns_ = 0;
  std::uint64_t sessions_ = 0;
  std::uint64_t dropped_not_connected_ = 0, dropped_full_ = 0, dropped_too_big_ = 0;
  ConnStats past_;  // counters of finished connections
};

}  // namespace ncgw::udt
