// Encoding and strict decoding of the plain transport header (transports/plain/wire.h).
#pragma once
#include <cstdint>
#include <optional>
#include <span>

#include "transports/plain/wire.h"

namespace ncgw::plain {

// A decoded plain header.
struct Header {
  PacketType type = PacketType::data;
  std::uint8_t flags = 0;
  std::uint8_t auth_len = 0;
  std::uint32_t session_id = 0;
  std::uint16_t seq = 0;   // per-direction datagram sequence number
};

// Why a datagram was rejected by decode_header.
enum class DecodeError : std::uint8_t {
  none,
  too_short,       // fewer than kHeaderSize bytes
  bad_magic,       // not an ncgw plain datagram
  bad_version,     // a version this build does not speak
  bad_type,        // unknown packet type
  bad_flags,       // flags or auth_len set that v2 does not support
  bad_length,      // keep-alive with payload, or data without payload
};

// Human-readable name of a DecodeError, used as a counter suffix.
const char* to_string(DecodeError e);

// Result of decoding: the header and the payload span, or the error.
struct Decoded {
  DecodeError error = DecodeError::none;
  Header header;
  std::span<const std::uint8_t> payload;
};

// Writes `h` into out[0..kHeaderSize); out must hold kHeaderSize bytes.
void encode_header(const Header& h, std::span<std::uint8_t> out);
// Parses and validates a whole datagram; never reads outside `datagram`.
Decoded decode_datagram(std::span<const std::uint8_t> datagram);

}  // namespace ncgw::plain
