// The gateway's UDT transport: UDT connections to one peer gateway, message mode, one IP packet
// per message (transport::Core). One connection is plain UDT4; more are paper 001's parallel
// channels: each inner flow stays on one channel (ChannelMap), so every flow is delivered in
// order. Connects as caller, listener or rendezvous and connects again when a connection breaks
// (peer restart, long silence). The caller chooses the channel count: fixed, or OPCN from the
// measured RTT and then paper 001's ACT tuner.
#pragma once
#include <cstdint>
#include <optional>

#include "transports/common/core.h"
#include "transports/common/entrance_queue.h"
#include "transports/udt/channel_map.h"
#include "transports/udt/channel_set.h"
#include "transports/udt/channel_tuner.h"

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
  unsigned channels = 1;               // parallel channels; 0: OPCN, then the ACT tuner (caller)
  ActTunerSettings tuner;              // bounds and thresholds of the ACT tuner (channels 0)
  std::int64_t tuner_interval_us = 1'000'000;  // how often the measured RTT is reported to ACT
  // Entrance queue bound (docs/udt-wire.md): an IP packet is dropped at the entrance when its
  // channel's oldest unsent packet has waited longer than this and at least kMinEntranceQueue
  // packets wait. -1: automatic, min RTT / 2 + 10 ms; 0: off (the send buffer is the only bound).
  int entrance_queue_ms = -1;
};

// Packets a channel's entrance queue always takes (the transports' shared burst allowance).
inline constexpr std::uint32_t kMinEntranceQueue = transport::kEntranceBurstPackets;

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

  // The connection in the lowest connected slot (null between connections).
  const Connection* connection() const;
  // Connections established so far (1 + reconnects, per channel).
  std::uint64_t sessions() const { return set_.sessions(); }
  // The connection in channel slot `slot`, or null.
  const Connection* channel(int slot) const { return set_.conn(slot); }
  // Channels connected now.
  int channels_connected() const;
  // The channel count the caller aims at (fixed, or the tuner's).
  unsigned channel_target() const { return target_; }
  // Which channel slot carries a packet of this inner flow now (ChannelMap::kNone before any).
  int slot_of(std::span<const std::uint8_t> ip_packet) const;

 private:
  // Status figures of the model-based controller across the connected channels (`bbr` only).
  void append_bbr_stats(std::vector<transport::StatEntry>& out, double payload) const;
  // True on the side that opens the channels (caller or rendezvous).
  bool calls() const { return s_.role != TunnelRole::listener; }
  // Paper 000 eq. 15 from the connection's measurements, capped by the MSS in use.
  double mss_rule_bytes(const ConnStats& st) const;
  // Takes in, opens and drops channels; keeps the flow map's active set; runs the tuner.
  void maintain(transport::TimePoint now);
  // Opens channels up to the target (after the reconnect delay when one died).
  void open_missing(transport::TimePoint now);
  // Gives the flow map the channels that take new flows; moves waiting buckets now and then.
  void update_active(transport::TimePoint now);
  // channels 0: feeds the mean channel RTT to ACT once per tuner interval; sets the target.
  void run_tuner(transport::TimePoint now);
  // How long the oldest unsent packet of a channel may wait before new packets are dropped (µs).
  std::int64_t entrance_limit_us(const Connection& c) const;
  // True if `c`'s entrance queue refuses a packet now.
  bool entrance_full(const Connection& c, transport::TimePoint now) const;
  // Packets the channel in `slot` has had acknowledged, or nothing if it is not connected.
  std::optional<std::uint64_t> acked(int slot) const;

  UdtTunnelSettings s_;
  ChannelSet set_;
  ChannelMap map_;
  ActTuner tuner_;
  unsigned target_ = 1;           // channels the caller keeps open and active
  bool started_ = false;
  std::int64_t reconnect_at_ns_ = 0;
  std::int64_t next_tuner_ns_ = 0, next_settle_ns_ = 0;
  std::size_t waiting_moves_ = 0;  // buckets that wait to move (ChannelMap::settle)
  int deliver_rr_ = 0;             // slot poll_deliver tries first
  std::uint64_t dropped_not_connected_ = 0, dropped_full_ = 0, dropped_too_big_ = 0;
  std::uint64_t dropped_entrance_ = 0;  // refused by the entrance queue bound
};

}  // namespace ncgw::udt
