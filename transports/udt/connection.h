// One UDT connection as a sans-I/O state machine: handshake (caller, listener side, rendezvous),
// sender (buffer, loss list, pacing, CUDTCC), receiver (buffer, ACK/ACK2/NAK, arrival statistics)
// and the EXP timer. Fed parsed packets and time; drained of datagrams for its peer address.
#pragma once
#include <cstdint>
#include <optional>
#include <span>

#include "transports/common/time.h"
#include "transports/common/windowed_filter.h"
#include "transports/udt/ack_window.h"
#include "transports/udt/address.h"
#include "transports/udt/arrival_window.h"
#include "transports/udt/control_queue.h"
#include "transports/udt/rate_control.h"
#include "transports/udt/loss_list.h"
#include "transports/udt/packet.h"
#include "transports/udt/receiver.h"
#include "transports/udt/send_buffer.h"
#include "transports/udt/settings.h"

namespace ncgw::udt {

using transport::TimePoint;

// Where a connection is in its life.
enum class ConnState : std::uint8_t {
  connecting,   // caller or rendezvous handshake under way
  connected,
  closed,       // shutdown sent or received
  broken,       // peer silent (EXP) or protocol violation
  rejected,     // the peer refused (1002) or answered with a wrong ISN
  timed_out,    // no handshake answer in time
};
// Human-readable state name.
const char* to_string(ConnState s);

// Counters and gauges of one connection (UDT's perfmon, roughly).
struct ConnStats {
  double period_us = 0;          // packet sending period
  double cwnd = 0;               // congestion window (packets)
  std::int32_t flow_window = 0;  // peer's advertised window (packets)
  std::int32_t rtt_us = 0;
  std::int32_t rtt_var_us = 0;
  std::int32_t min_rtt_us = 0;       // smallest smoothed RTT of the last 10 s (0: none yet)
  std::int32_t capacity_pps = 0;     // estimated link capacity (packets/s)
  std::int32_t delivery_rate_pps = 0;
  std::uint64_t sent = 0, received = 0, retransmitted = 0;
  std::uint64_t snd_loss = 0, rcv_loss = 0;  // packets reported lost (sender) / detected lost (receiver)
  std::uint64_t acks_sent = 0, acks_received = 0, naks_sent = 0, naks_received = 0;
  std::uint64_t drops_sent = 0, control_dropped = 0;
  std::uint32_t in_flight = 0, send_buffered = 0;
  std::uint32_t unsent = 0;      // queued packets never sent yet
  bool slow_start = true;
  double ssthresh = 0;           // slow-start threshold (PaUDT; 0 under CUDTCC)
};

class Connection {
 public:
  enum class Role : std::uint8_t { caller, listener, rendezvous };

  // A connection with local socket id `self_id`; buffers are allocated here, once.
  Connection(const ConnectionSettings& s, std::int32_t self_id, std::uint64_t seed, TimePoint now);

  // Starts a caller handshake towards `peer` (request type 1 to socket id 0).
  void start_caller(const PeerAddress& peer, TimePoint now);
  // Starts a rendezvous handshake towards `peer` (request type 0).
  void start_rendezvous(const PeerAddress& peer, TimePoint now);
  // Accepts a caller's cookie-checked request `req` from `peer` (listener side) and queues the response.
  void accept(const PeerAddress& peer, const Handshake& req, TimePoint now);
  // A listener-side response to a caller at `peer`, built from this connection's settings.
  Handshake response_handshake(const PeerAddress& peer) const;
  // The answer a connected connection repeats when its peer shows it missed it (a repeated
  // request, or EXP while a listener has not heard the caller): the listener's stored response,
  // else a response or rendezvous ack built as the first one was.
  Handshake repeated_answer() const;

  // A packet addressed to this connection arrived.
  void on_packet(const Packet& p, TimePoint now);
  // Timers (ACK, NAK, EXP, handshake retry); call at or after next_deadline().
  void on_timeout(TimePoint now);
  // Next datagram for the peer into `out` (at least mss - 28 bytes); its size, or nothing.
  std::optional<std::size_t> poll_transmit(std::span<std::uint8_t> out, TimePoint now);
  // When on_timeout or poll_transmit has work next.
  std::optional<TimePoint> next_deadline() const;

  // Stream mode: queues bytes; returns how many were accepted.
  std::size_t send_stream(std::span<const std::uint8_t> data, TimePoint now);
  // Message mode: queues one message (ttl_ms < 0: never expires); false if the buffer is full.
  bool send_message(std::span<const std::uint8_t> data, TimePoint now, int ttl_ms = -1, bool in_order = true);
  // Message mode: the next complete message, copied into out; its size (truncated copy if larger).
  std::optional<std::size_t> recv_message(std::span<std::uint8_t> out) { return rcv_.read_message(out); }
  // Stream mode: bytes read into out.
  std::size_t recv_stream(std::span<std::uint8_t> out) { return rcv_.read_stream(out); }
  // True if data is ready to read.
  bool readable() const { return rcv_.readable(); }
  // Sends shutdown and closes (queued data is abandoned; wait for send_idle() first to drain).
  // send_idle() means the peer holds everything readable, not that its application has read it:
  // libudt 4.11's blocking recvmsg can fail the call under way when the shutdown lands.
  void close(TimePoint now);

  ConnState state() const { return state_; }
  bool connected() const { return state_ == ConnState::connected; }
  bool peer_closed() const { return peer_closed_; }
  // True if every queued byte has been acknowledged.
  bool send_idle() const { return sbuf_.size() == 0; }
  // True if every queued packet has been sent at least once.
  bool all_sent() const { return !sbuf_.has_unsent(); }
  // Packets ever queued / ever acknowledged by the peer (see SendBuffer::queued_total).
  std::uint64_t packets_queued() const { return sbuf_.queued_total(); }
  std::uint64_t packets_acked() const { return sbuf_.acked_total(); }
  // Queued packets never sent yet, and how long the oldest of them has waited (0 if none).
  std::uint32_t unsent_packets() const { return sbuf_.size() - sbuf_.unsent_offset(); }
  std::int64_t unsent_wait_us(TimePoint now) const;
  // Smallest smoothed RTT of the last 10 s (0 before the first measurement).
  std::int32_t min_rtt_us() const { return min_rtt_.best(); }
  // Free room in the send buffer (packets).
  std::uint32_t send_room() const { return sbuf_.free_blocks(); }
  // Largest payload this side sends (negotiated MSS - IP/UDP headers of the family - 16).
  std::uint32_t payload_size() const { return payload_; }
  std::int32_t self_id() const { return self_id_; }
  std::int32_t peer_id() const { return peer_id_; }
  const PeerAddress& peer() const { return peer_; }
  Role role() const { return role_; }
  SocketType type() const { return settings_.type; }
  std::int32_t isn() const { return isn_; }
  ConnStats stats() const;
  // The model-based controller when `congestion_control` is bbr and the connection is up, else null.
  const transport::BbrController* bbr() const { return cc_.bbr(); }

 private:
  // handshake (connection_handshake.cc)
  Handshake make_request() const;
  void send_handshake(std::uint32_t dest, const Handshake& h);
  void on_handshake_connecting(const Packet& p, TimePoint now);
  void on_handshake_connected(const Packet& p);
  void retry_handshake(TimePoint now);
  void establish(std::int32_t peer_isn, std::int32_t peer_id, std::int32_t peer_mss, std::int32_t peer_fc,
                 TimePoint now);
  // sender (connection_send.cc)
  std::optional<std::size_t> pack_data(std::span<std::uint8_t> out, TimePoint now);
  bool drop_expired(std::int32_t s, std::uint32_t off, TimePoint now);
  void on_ack(const Packet& p, TimePoint now);
  void on_nak(const Packet& p, TimePoint now);
  bool has_data_to_send() const;
  // Packets sent and neither acknowledged nor waiting in the loss list.
  std::uint32_t packets_in_flight() const;
  bool window_open() const;
  void schedule_next(bool probe, TimePoint now);
  std::size_t write_data(std::span<std::uint8_t> out, std::int32_t s, std::uint32_t off, TimePoint now);
  // receiver (connection_recv.cc)
  void on_data(const Packet& p, TimePoint now);
  void on_control(const Packet& p, TimePoint now);
  void on_ack2(const Packet& p, TimePoint now);
  void check_ack(TimePoint now);
  void send_ack(TimePoint now, bool light);
  std::size_t pack_periodic_nak(std::span<std::uint8_t> out);
  void check_periodic_nak(TimePoint now);
  std::int64_t nak_interval_us() const;
  // timers (connection_timers.cc)
  void check_exp(TimePoint now);
  void heard_from_peer(TimePoint now);
  void queue_control(wire::ControlType t, std::uint32_t info, std::span<const std::uint32_t> words);
  std::int64_t us(TimePoint t) const { return transport::us_since_epoch(t); }
  void update_rtt(std::int32_t sample_us, TimePoint now);

  ConnectionSettings settings_;
  std::int32_t self_id_;
  std::int32_t peer_id_ = 0;
  PeerAddress peer_;
  Role role_ = Role::caller;
  ConnState state_ = ConnState::connecting;
  bool peer_closed_ = false;
  std::uint64_t seed_;
  TimePoint start_;
  std::uint32_t mss_;
  std::uint32_t payload_;

  // handshake
  Handshake req_;
  Handshake res_;
  bool have_res_ = false;
  // Listener: nothing has reached this connection since its handshake response, so the caller may
  // still be connecting; its EXP repeats the response rather than sending a keep-alive (the
  // library's connect loop takes any other packet as the end of the handshake).
  bool awaiting_caller_ = false;
  std::int64_t last_req_us_ = 0;
  std::int64_t connect_deadline_us_ = 0;

  // sender
  SendBuffer sbuf_;
  SendLossList sloss_;
  RateControl cc_;
  std::int32_t isn_ = 0;
  std::int32_t snd_last_ack_ = 0;       // highest ACK number seen (light or full)
  std::int32_t snd_last_data_ack_ = 0;  // highest ACK number that released the buffer
  std::int32_t snd_curr_seq_ = 0;       // last sequence number sent
  std::int32_t flow_window_ = 0;
  std::int64_t next_send_ns_ = 0;       // pacing deadline of the next data packet

  // receiver
  Receiver rcv_;
  AckWindow ack_window_;
  ArrivalWindow arrival_;
  std::int32_t rcv_last_ack_ = 0;
  std::int32_t rcv_last_ack_ack_ = 0;
  std::int32_t ack_seq_ = 0;
  std::int64_t last_full_ack_us_ = 0;
  std::int64_t next_ack_us_ = 0;
  std::int64_t next_nak_us_ = 0;
  std::uint32_t pkt_count_ = 0;
  std::uint32_t light_ack_count_ = 1;
  bool nak_pending_ = false;            // a periodic NAK is due

  // shared
  std::int32_t rtt_us_ = wire::kInitialRttUs;
  std::int32_t rtt_var_us_ = wire::kInitialRttVarUs;
  transport::WindowedFilter<std::int32_t, std::less<std::int32_t>> min_rtt_{10'000'000};  // over µs
  std::int32_t delivery_rate_ = wire::kInitialDeliveryRate;
  std::int32_t bandwidth_ = wire::kInitialBandwidth;
  std::int32_t exp_count_ = 1;
  std::int64_t last_rsp_us_ = 0;    // last time heard from the peer (reset by each EXP)
  std::int64_t last_heard_us_ = 0;  // last time heard from the peer
  ControlQueue ctrl_;
  ConnStats st_;
};

}  // namespace ncgw::udt
