// Codec of TCP/NC datagrams (layouts in wire.h and docs/tcpnc-wire.md). Parsers take untrusted
// bytes and reject anything malformed; writers return 0 when the output is too small.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "transports/tcpnc/wire.h"

namespace ncgw::tcpnc {

// Fields every datagram starts with.
struct CommonHeader {
  PacketType type = PacketType::kKeepalive;
  std::uint32_t src_session = 0;  // sender's session id
  std::uint32_t dst_session = 0;  // receiver's session id as known to the sender (0: unknown)
};

// DATA fields before the coding header.
struct DataHeader {
  std::uint64_t tx = 0;  // transmission number (the wire carries its low kDataTxBits bits;
                         // parse_data returns them, the receiver unwraps)
};

// One CW entry of an ACK.
struct AckCw {
  std::uint8_t rank = 0;   // DoF the receiver holds
  std::uint8_t flags = 0;  // kCwFlagComplete | kCwFlagKnown
};

// An inclusive range of received transmission numbers.
struct AckRange {
  std::uint64_t smallest = 0;
  std::uint64_t largest = 0;
};

// A decoded ACK. Ranges are absolute, descending and disjoint; ranges[0].largest == largest.
struct AckFrame {
  std::uint64_t seen = 0;           // cumulative DoF number
  std::uint64_t largest = 0;        // largest transmission number received
  std::uint32_t ack_delay_us = 0;   // delay between that arrival and this ACK
  std::uint32_t first_cw = 0;       // low 32 bits of the first CW entry's id
  std::uint8_t cw_count = 0;        // entries in cws
  std::array<AckCw, kMaxAckCws> cws{};
  std::uint8_t range_count = 0;     // entries in ranges (>= 1 in a valid ACK)
  std::array<AckRange, kMaxAckRanges + 1> ranges{};
};

// HELLO / HELLO_ACK body: the decoder limits the sender must respect.
struct Hello {
  std::uint32_t version = kVersion;
  std::uint16_t max_packet = 0;  // largest source packet
  std::uint8_t max_n = 0;        // largest CW size n
  std::uint8_t max_open = 0;     // CWs held at once by the decoder
  std::uint8_t flags = 0;        // kHelloFlag* features switched on at this side
};

// Parses the common header; rejects short input, another version or an unknown type.
std::optional<CommonHeader> parse_common(std::span<const std::uint8_t> d);
// Writes byte 0 of a datagram: this protocol version and `type`.
void set_type(std::span<std::uint8_t> out, PacketType type);
// The type byte 0 names if it carries this protocol version (the type may still be unknown).
std::optional<PacketType> peek_type(std::span<const std::uint8_t> d);
// Writes the common header; returns kCommonHeaderSize or 0.
std::size_t write_common(std::span<std::uint8_t> out, const CommonHeader& h);

// Writes common + DATA header; the caller appends the coding header and payload. Returns
// kDataHeaderSize or 0.
std::size_t write_data_header(std::span<std::uint8_t> out, const CommonHeader& h, const DataHeader& d);
// Parses the DATA header of a datagram whose common header parsed as kData; `coded` receives the
// bytes after it (coding header + payload).
std::optional<DataHeader> parse_data(std::span<const std::uint8_t> d, std::span<const std::uint8_t>& coded);

// Writes a complete ACK; returns its size or 0 (too small, or ranges not descending/disjoint).
std::size_t write_ack(std::span<std::uint8_t> out, const CommonHeader& h, const AckFrame& a);
// Parses an ACK datagram; rejects truncation, counts above the maxima and ranges that underflow.
std::optional<AckFrame> parse_ack(std::span<const std::uint8_t> d);

// Parses an ACK body: an ACK datagram without its common header (also the trailer of DATA_ACK).
std::optional<AckFrame> parse_ack_body(std::span<const std::uint8_t> body);

// The two parts of a DATA_ACK datagram.
struct DataAckParts {
  std::span<const std::uint8_t> data;      // a DATA datagram (common + DATA header, coded part)
  std::span<const std::uint8_t> ack_body;  // an ACK body for parse_ack_body
};
// Turns the DATA datagram of `data_size` bytes at the start of `out` into a DATA_ACK by appending
// the body of the complete ACK datagram `ack` and its length. Returns the new size, or 0 when `out`
// has no room for it (then `out` is left a valid DATA datagram).
std::size_t append_ack(std::span<std::uint8_t> out, std::size_t data_size, std::span<const std::uint8_t> ack);
// Splits a datagram whose common header parsed as kDataAck; rejects a trailer that does not fit.
std::optional<DataAckParts> split_data_ack(std::span<const std::uint8_t> d);

// Writes a HELLO or HELLO_ACK (h.type decides); returns kHelloSize or 0.
std::size_t write_hello(std::span<std::uint8_t> out, const CommonHeader& h, const Hello& body);
// Parses a HELLO / HELLO_ACK body.
std::optional<Hello> parse_hello(std::span<const std::uint8_t> d);

}  // namespace ncgw::tcpnc
