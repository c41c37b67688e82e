// TcpncCore: one TCP/NC session with one peer gateway, both directions (its own Sender and its own
// Receiver), as a sans-I/O transport::Core. Connection management: symmetric HELLO handshake (no
// client/server roles: both sides send HELLO until they hear the peer), random session ids that
// tell a restarted peer apart, keep-alive when idle, dead-peer detection (then a new session id,
// so the peer resets too). docs/tcpnc-wire.md has the state machine.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "transports/common/core.h"
#include "transports/common/rng.h"
#include "transports/tcpnc/packet.h"
#include "transports/tcpnc/receiver.h"
#include "transports/tcpnc/sender.h"
#include "transports/tcpnc/settings.h"

namespace ncgw::tcpnc {

// Session-level counters.
struct SessionCounters {
  std::uint64_t hellos_sent = 0, hello_acks_sent = 0, keepalives_sent = 0, session_resets = 0;
  std::uint64_t peer_restarts = 0, unknown_session = 0, malformed = 0, datagrams_received = 0;
  std::uint64_t hellos_ignored = 0;   // HELLO of a new session within kMinAdoptInterval of the last one
  std::uint64_t acks_piggybacked = 0;  // ACKs sent as the trailer of a DATA_ACK
  std::uint64_t stuck_cw_resets = 0;   // sessions restarted because a CW stayed incomplete dead_peer_ms
};

// Shortest time between two adoptions of a new peer session: each adoption rebuilds the coding
// state, so a stream of HELLOs with ever new session ids must not rebuild it at line rate.
inline constexpr transport::Duration kMinAdoptInterval = std::chrono::milliseconds(100);

// The TCP/NC transport core for one peer.
class TcpncCore : public transport::Core {
 public:
  // `seed` drives session ids and coefficient salts. The gateway must pass a seed that differs at
  // every process start (e.g. settings.seed mixed with std::random_device): a restarted gateway
  // that reused its session id could not be told apart from the old one by its peer.
  TcpncCore(const TcpncCoreSettings& settings, std::uint64_t seed);

  void on_datagram(std::span<const std::uint8_t> bytes, TimePoint now) override;
  void on_timeout(TimePoint now) override;
  transport::SendResult send(std::span<const std::uint8_t> ip_packet, TimePoint now) override;
  std::optional<std::size_t> poll_transmit(std::span<std::uint8_t> out, TimePoint now) override;
  std::optional<std::size_t> poll_deliver(std::span<std::uint8_t> out) override;
  std::optional<TimePoint> next_deadline() const override;
  // The largest IP packet send() takes: the configured one (max_payload_for) until a session says
  // what the peer joins (smaller when it cannot join forms in pieces).
  std::size_t max_payload() const override { return sender_.max_packet(); }
  std::vector<transport::StatEntry> stats() const override;

  // True once the peer's session id is known and both directions run.
  bool established() const { return peer_session_ != 0; }
  std::uint32_t session_id() const { return my_session_; }
  std::uint32_t peer_session_id() const { return peer_session_; }
  const Sender& sender() const { return sender_; }
  const Receiver& receiver() const { return receiver_; }
  const SessionCounters& session_counters() const { return ctr_; }

 private:
  // A new peer session (first contact or a restarted peer): both directions start over. When it
  // replaces a session met by a HELLO (`from_hello`), our side takes a new session id too, so the
  // peer we had resets as well, whoever sent that HELLO: resets are never one-sided.
  void adopt_peer(std::uint32_t peer, const Hello& limits, bool from_hello, TimePoint now);
  // Our side gives the session up (dead peer): new session id, back to connecting.
  void reset_session(TimePoint now);
  // HELLO / HELLO_ACK arrival.
  void on_hello(const CommonHeader& h, std::span<const std::uint8_t> bytes, TimePoint now);
  // Writes a control datagram (HELLO, HELLO_ACK, KEEPALIVE) if one is owed.
  std::optional<std::size_t> poll_control(std::span<std::uint8_t> out, TimePoint now);
  // Writes DATA, with an owed ACK as its trailer when the datagram has room (DATA_ACK). An owed
  // ACK waits at most ack_hold() for data to ride on; one that did not fit goes out alone next.
  std::optional<std::size_t> poll_data_and_ack(std::span<std::uint8_t> out, TimePoint now);
  // Writes the owed (or already written) ACK alone.
  std::optional<std::size_t> send_ack_alone(std::span<std::uint8_t> out, TimePoint now);
  // How long an owed ACK may wait for data: an eighth of the min RTT, at most 1 ms; zero before
  // the first RTT sample or when the last DATA left no room for an ACK trailer.
  transport::Duration ack_hold() const;
  // Common header for a datagram of `type` to the peer.
  CommonHeader header(PacketType type) const { return {type, my_session_, peer_session_}; }
  // A fresh non-zero session id.
  std::uint32_t new_session_id();

  TcpncCoreSettings s_;
  transport::Rng rng_;
  Sender sender_;
  Receiver receiver_;
  std::uint32_t my_session_ = 0, peer_session_ = 0;
  bool hello_due_ = true, hello_ack_due_ = false, keepalive_due_ = false;
  TimePoint next_hello_{}, last_heard_{}, last_sent_{}, now_{};
  std::optional<TimePoint> last_adopt_;
  std::array<std::uint8_t, kMaxAckSize> held_ack_{};  // an ACK written that did not fit on data
  std::size_t held_ack_size_ = 0;                     // its size (0: none)
  std::optional<TimePoint> ack_hold_until_;           // an owed ACK goes out alone then
  std::size_t last_data_room_ = 0;                    // bytes the last DATA left free in its datagram
  SessionCounters ctr_;
};

// Largest coded source (an IP packet, or its header-compression form) a core with these settings
// puts in one DATA datagram.
std::size_t max_symbol_for(const TcpncCoreSettings& s);
// Largest IP packet a core with these settings carries when its peer is like it (max_tunnel_packet).
std::size_t max_payload_for(const TcpncCoreSettings& s);

}  // namespace ncgw::tcpnc
