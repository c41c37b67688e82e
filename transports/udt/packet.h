// UDT4 4.11 packet codec: parse and write every packet type exactly as the library puts it on the
// wire (header words and control payload words in network order, data payloads untouched).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "transports/udt/address.h"
#include "transports/udt/wire.h"

namespace ncgw::udt {

// A decoded packet: header fields plus a view of the payload (valid while the input lives).
struct Packet {
  bool control = false;
  std::int32_t seq = 0;            // data: 31-bit sequence number
  std::uint32_t msg_word = 0;      // data: boundary | in-order | message number
  wire::ControlType type{};        // control: type (bits 16..30 of word0)
  std::uint16_t ext_type = 0;      // control: extended type (low 16 bits of word0)
  std::uint32_t info = 0;          // control: additional info (ACK seq, message number, ...)
  std::uint32_t timestamp = 0;     // microseconds since the sender's socket opened (0 in control)
  std::uint32_t dest_id = 0;       // destination socket id (0: a listener's handshake)
  std::span<const std::uint8_t> payload;
};

// The 48-byte handshake content (CHandShake).
struct Handshake {
  std::int32_t version = wire::kUdtVersion;
  std::int32_t sock_type = wire::kSockStream;
  std::int32_t isn = 0;
  std::int32_t mss = wire::kDefaultMss;
  std::int32_t flight_flag_size = wire::kDefaultFlightFlagSize;
  std::int32_t req_type = wire::kReqCaller;
  std::int32_t socket_id = 0;
  std::int32_t cookie = 0;
  std::array<std::uint32_t, 4> peer_ip{};  // words as the library writes them (see peer_ip_words)
  friend bool operator==(const Handshake&, const Handshake&) = default;
};

// The ACK content: 1 word (light), 4 words (short) or 6 words (full).
struct AckContent {
  int words = 0;                 // 1, 4 or 6
  std::int32_t ack = 0;          // next expected sequence number
  std::int32_t rtt_us = 0;
  std::int32_t rtt_var_us = 0;
  std::int32_t avail_buffer = 0;  // packets
  std::int32_t arrival_rate = 0;  // packets per second
  std::int32_t capacity = 0;      // packets per second (packet pairs)
};

// A message drop request's content.
struct DropRequest {
  std::int32_t msgno = 0;
  std::int32_t first = 0;
  std::int32_t last = 0;
};

// Builds the data header's second word.
constexpr std::uint32_t make_msg_word(std::int32_t msgno, bool first, bool last, bool in_order) {
  return (first ? wire::kBoundaryFirst : 0u) | (last ? wire::kBoundaryLast : 0u) |
         (in_order ? wire::kInOrderBit : 0u) | (static_cast<std::uint32_t>(msgno) & wire::kMsgNoMask);
}
// Message number of a data header's second word.
constexpr std::int32_t msg_no(std::uint32_t w) { return static_cast<std::int32_t>(w & wire::kMsgNoMask); }
// True if the packet starts a message.
constexpr bool msg_first(std::uint32_t w) { return (w & wire::kBoundaryFirst) != 0; }
// True if the packet ends a message.
constexpr bool msg_last(std::uint32_t w) { return (w & wire::kBoundaryLast) != 0; }

// Peer IP words as the library writes them: IPv4 bytes a.b.c.d become the host word a|b<<8|c<<16|d<<24.
std::array<std::uint32_t, 4> peer_ip_words(const PeerAddress& addr);

// Parses the header; nullopt if shorter than 16 bytes or a control payload is not whole words.
std::optional<Packet> parse_packet(std::span<const std::uint8_t> bytes);
// Parses a handshake payload (at least 48 bytes).
std::optional<Handshake> parse_handshake(std::span<const std::uint8_t> payload);
// Parses an ACK payload (4, 16 or 24+ bytes).
std::optional<AckContent> parse_ack(std::span<const std::uint8_t> payload);
// Parses a message drop request (info word + 8 bytes).
std::optional<DropRequest> parse_drop_request(const Packet& p);
// Walks a NAK payload, calling f(first, last) per lost range; false if malformed.
template <class F>
bool for_each_nak_range(std::span<const std::uint8_t> payload, F&& f);

// Writes a data header; returns 16 (out must hold 16 bytes).
std::size_t write_data_header(std::span<std::uint8_t> out, std::int32_t seq, std::uint32_t msg_word,
                              std::uint32_t timestamp, std::uint32_t dest_id);
// Writes a control packet with the given content words (none: the 4-byte pad); returns its size or 0.
std::size_t write_control(std::span<std::uint8_t> out, wire::ControlType type, std::uint32_t info,
                          std::uint32_t dest_id, std::span<const std::uint32_t> words);
// Writes a handshake control packet (64 bytes); returns its size or 0.
std::size_t write_handshake(std::span<std::uint8_t> out, std::uint32_t dest_id, const Handshake& hs);
// Writes an ACK of 1, 4 or 6 words with ACK sequence number `ack_seq` (0 for a light ACK).
std::size_t write_ack(std::span<std::uint8_t> out, std::uint32_t dest_id, std::int32_t ack_seq, const AckContent& a);
// Writes a NAK from lost ranges [first,last] (compressed: single numbers alone, ranges as two words).
std::size_t write_nak(std::span<std::uint8_t> out, std::uint32_t dest_id,
                      std::span<const std::array<std::int32_t, 2>> ranges);
// Writes a message drop request.
std::size_t write_drop_request(std::span<std::uint8_t> out, std::uint32_t dest_id, const DropRequest& d);

// ---- template implementation ----
template <class F>
bool for_each_nak_range(std::span<const std::uint8_t> payload, F&& f) {
  const std::size_t n = payload.size() / 4;
  auto word = [&](std::size_t i) {
    const std::uint8_t* p = payload.data() + 4 * i;
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t w = word(i);
    if (w & wire::kNakRangeBit) {
      if (i + 1 >= n) return false;
      const std::uint32_t e = word(++i);
      if (e & wire::kNakRangeBit) return false;
      if (!f(static_cast<std::int32_t>(w & 0x7FFFFFFFu), static_cast<std::int32_t>(e))) return false;
    } else if (!f(static_cast<std::int32_t>(w), static_cast<std::int32_t>(w))) {
      return false;
    }
  }
  return true;
}

}  // namespace ncgw::udt
