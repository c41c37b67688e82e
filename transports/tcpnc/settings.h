// Settings of one TCP/NC core (one peer). Defaults equal config::TcpncSettings (config/config.h);
// the gateway maps the YAML settings onto this struct, so transports/ stays free of config/.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>

#include "transports/tcpnc/congestion_controller.h"

namespace ncgw::tcpnc {

// Everything a TcpncCore is configured with.
struct TcpncCoreSettings {
  CcAlgorithm congestion_control = CcAlgorithm::kBbr;
  std::uint32_t cwnd_max_packets = 0;        // CWND_max: upper limit on transmissions in flight;
                                             // 0: automatic (the controller's BDP-based window,
                                             // bounded by kAutoCwndCap)
  std::uint32_t link_buffer_packets = 0;     // 0: R_max x CWND_max (paper 002 section 2.2)
  std::uint32_t sending_buffer_packets = 0;  // 0: CWND_max + link buffer (paper 002 section 2.2);
                                             // with CWND_max automatic too: a queueing-delay budget
                                             // at the path's rate (Sender::auto_queue_limit)
  std::uint32_t n_min = 4;                   // coding window size bounds (source packets)
  std::uint32_t n_max = 255;
  std::uint32_t k_max = 255;                 // most repairs per CW
  double r_max = 2.0;                        // largest redundancy factor R = (n + k) / n
  double retransmission_target = 0.25;       // latency knob: at most 2 x this many retransmission
                                             // rounds per RTT; per CW at most this (x 2 with bbr)
  double idle_retransmission_target = 0.01;  // the same bound while the path has room for the
                                             // repairs: input well below the path rate (the spare
                                             // plan), or a CW closed early because input paused
  double cw_rtt_fraction = 0.5;              // longest CW: this x min RTT at the path rate, or the
                                             // floor of RedundancyPlan::delay_bounded_n_max
  bool sparse_flow_priority = true;          // packets of flows with nothing waiting pass the
                                             // entrance queue first (entrance_lanes.h)
  bool header_compression = true;            // inner IP/TCP/UDP headers travel as their changes
                                             // (header_compression.h) when both sides have it on
  std::optional<std::uint32_t> fixed_n;      // set both to disable adaptation
  std::optional<std::uint32_t> fixed_k;
  std::uint32_t rto_min_ms = 200;            // RFC 6298 with a floor near the inner TCP's 200 ms
  std::uint32_t keepalive_ms = 1000;         // idle this long: send a keep-alive
  std::uint32_t dead_peer_ms = 10000;        // nothing heard this long: new session
  std::uint64_t seed = 1;                    // session ids and repair-coefficient salt

  // Not in config::TcpncSettings (transport-internal; the gateway may leave the defaults):
  std::uint32_t max_datagram_bytes = 1472;   // largest UDP payload (IPv4, MTU 1500); max_payload follows
  std::uint32_t initial_cwnd_packets = 32;   // a tunnel carries several flows' RFC 6928 windows, plus repairs
  double startup_cwnd_growth = 2;            // bbr Startup: window growth per acknowledged transmission
                                             // (end hosts in slow start double per round, plus repairs)
  std::uint32_t flush_us = 1000;             // a partly filled CW is closed after this much idle input
  std::uint32_t adapt_interval_ms = 100;     // how often (n, k) is re-chosen from the estimate
  double loss_prior_transmissions = 50;      // the estimate behind (n, k) starts from a prior channel
                                             // (coding::LossPrior) worth this many transmissions; 0: none
  bool price_rounds = true;                  // bbr: (n, k) weigh what a retransmission round costs the
                                             // path (RoundCostMeter); false: paper 002's model
  std::uint32_t hello_interval_ms = 250;     // HELLO repetition while connecting
  std::uint32_t ack_every = 2;               // delayed ACK: acknowledge every this many DATA ...
  std::uint32_t max_ack_delay_us = 5000;     // ... or this long after the first unacknowledged one
  std::uint64_t initial_tx = 0;              // first transmission number of a session (tests start
                                             // near 2^24 to cross the 24-bit wire wrap; keep < 2^24)
};

// Limits of automatic sizing (cwnd_max_packets 0): memory bounds, not tuning.
inline constexpr std::uint32_t kAutoCwndCap = 8192;         // transmissions in flight
inline constexpr std::uint32_t kAutoQueueCapacity = 2048;   // waiting source packets
inline constexpr std::size_t kAutoCodingWindows = 128;      // most CWs open at once
// Source symbols the encoder's and the decoder's CW slots hold at most (each side preallocates
// coding windows x n_max symbols, zero pages until used): 128 windows of 255 sources.
inline constexpr std::size_t kCodingSymbolBudget = 32768;

// Whether the window and buffers are sized automatically (cwnd_max_packets 0).
inline bool auto_sized(const TcpncCoreSettings& s) { return s.cwnd_max_packets == 0; }
// CWND_max: the setting, or kAutoCwndCap.
std::uint32_t effective_cwnd_cap(const TcpncCoreSettings& s);
// The largest IP packet a core takes when a coded source may be `max_symbol` bytes: header
// compression's forms may add kHcMaxPrefix bytes to a packet.
std::size_t max_ip_packet(const TcpncCoreSettings& s, std::size_t max_symbol);
// The largest IP packet a core takes when the peer joins forms sent in pieces (wire.h,
// kHcFormPiece): with header compression on, sized so that a bulk TCP/IPv4 segment with timestamps
// fits one source compressed (kHcBulkFormHead); else max_ip_packet. The TUN MTU follows it.
std::size_t max_tunnel_packet(const TcpncCoreSettings& s, std::size_t max_symbol);
// The MSS a SYN entering the tunnel is clamped to when sources may be `source_limit` bytes.
std::uint16_t clamped_mss(std::size_t source_limit);
// Packets the sender's waiting queue preallocates: the sending buffer, or kAutoQueueCapacity when
// both the window and the sending buffer are automatic.
std::uint32_t queue_capacity(const TcpncCoreSettings& s);
// Link buffer in packets: the setting, or R_max x CWND_max.
std::uint32_t effective_link_buffer(const TcpncCoreSettings& s);
// Sending buffer in packets (unseen sources plus waiting ones): the setting, or CWND_max + link
// buffer (with CWND_max automatic: kAutoCwndCap + kAutoQueueCapacity, an upper bound only).
std::uint32_t effective_sending_buffer(const TcpncCoreSettings& s);

}  // namespace ncgw::tcpnc

namespace ncgw::tcpnc {
// CW slots held by the encoder and announced for the decoder: CWND_max / n_min + 3, in [4, 255];
// kAutoCodingWindows when CWND_max is automatic; in both cases at most what
// max(kCodingSymbolBudget, 2 x CWND_max) symbols allow at n_max (at least 4).
std::size_t coding_windows(const TcpncCoreSettings& s);
}  // namespace ncgw::tcpnc
