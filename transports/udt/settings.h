// Settings of one UDT connection and of a multiplexing endpoint.
#pragma once
#include <cstdint>
#include <optional>

#include "transports/udt/rate_control.h"
#include "transports/udt/wire.h"

namespace ncgw::udt {

// UDT socket type, as carried in the handshake.
enum class SocketType : std::int32_t { stream = wire::kSockStream, dgram = wire::kSockDgram };

// Per-connection settings (the library's socket options, plus our own improvements).
struct ConnectionSettings {
  SocketType type = SocketType::stream;
  std::uint32_t mss = wire::kDefaultMss;                          // UDT_MSS (counts IP + UDP headers)
  std::uint32_t ip_udp_overhead = wire::kIpUdpOverhead;           // IP + UDP header bytes of the
                                                                  // underlay in use (28 IPv4, 48 IPv6)
  std::uint32_t flight_flag_size = wire::kDefaultFlightFlagSize;  // UDT_FC
  std::uint32_t send_buffer_packets = 8192;                       // UDT_SNDBUF in packets
  std::uint32_t recv_buffer_packets = 8192;                       // UDT_RCVBUF in packets
  std::optional<std::int32_t> initial_seq;  // caller/rendezvous ISN; unset: random from the seed
  bool periodic_nak = true;                 // resend the loss list every NAK interval (off in 4.11)
  std::int64_t min_nak_interval_us = wire::kMinNakUs;
  std::int64_t pacing_credit_us = 200;      // how late the driver may be before pacing drops the debt
  int max_decreases_per_epoch = wire::kMaxDecreasesPerEpoch;  // CUDTCC: 5 as the library; 1: one
                                            // decrease per congestion epoch (better on drop-tail paths)
  CcKind congestion_control = CcKind::udt4;  // udt4: CUDTCC (interop); paudt: PaUDT's window rule
  std::int32_t initial_window = wire::kDefaultInitialWindow;  // slow start's first window (packets)
  std::int64_t connect_timeout_us = 0;      // 0: the library's (3 s; 30 s rendezvous)
  std::int64_t peer_idle_timeout_us = 0;    // 0: the library's rule (> 16 EXPs and > 5 s silence)
};

}  // namespace ncgw::udt
