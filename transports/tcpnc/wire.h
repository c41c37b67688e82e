// Wire constants of the TCP/NC transport (docs/tcpnc-wire.md). Every number another implementation
// must agree on lives here. Design sources: paper 002 section 2.1 (combinations, seen/unseen ACK,
// enhanced retransmission, adaptive k and R), section 2.2 (buffers); docs/tcpnc-mechanism.md (two sequence
// spaces: transmission numbers and cumulative degrees of freedom; what an ACK carries).
// All multi-byte fields are big-endian.
#pragma once
#include <cstddef>
#include <cstdint>

#include "coding/wire.h"

namespace ncgw::tcpnc {

// Protocol version in the high nibble of byte 0 of every datagram and in HELLO. 2: DATA and ACK
// without the sender timestamp and its echo (no part of the protocol read them), and forms in
// pieces. 3: version and type share byte 0, the DATA transmission number is 24 bits, and the
// coding header is version 2 (coding/wire.h): 5 bytes less per DATA datagram.
inline constexpr std::uint8_t kVersion = 3;

// Datagram types (low nibble of byte 0).
enum class PacketType : std::uint8_t {
  kData = 1,       // one coded combination (coding/ header + payload) with its transmission number
  kAck = 2,        // seen number, received transmission ranges, per-CW rank, ACK delay
  kHello = 3,      // session start: version, session id, decoder limits
  kHelloAck = 4,   // answer to HELLO (same body)
  kKeepalive = 5,  // no body: proves the peer session is alive when idle
  kDataAck = 6,    // a DATA datagram carrying an ACK for the other direction as a trailer
};

// Common header (every datagram).
inline constexpr std::size_t kOffVersionType = 0; // u8 kVersion << 4 | PacketType
inline constexpr std::size_t kOffSrcSession = 1;  // u32 sender's session id (non-zero, random per start)
inline constexpr std::size_t kOffDstSession = 5;  // u32 receiver's session id as the sender knows it (0: unknown)
inline constexpr std::size_t kCommonHeaderSize = 9;

// DATA body (after the common header).
inline constexpr std::size_t kOffDataTx = 9;          // u24 low 24 bits of the transmission number
                                                      // (the receiver unwraps it next to the largest received)
inline constexpr unsigned kDataTxBits = 24;
inline constexpr std::size_t kDataHeaderSize = 12;    // the coding header (coding/wire.h) follows
// Transmission records a sender keeps (far above any window). No honest DATA is further ahead of
// the largest transmission received than this, so a receiver drops such a datagram rather than
// let it move the largest number it acknowledges past anything the sender sent.
inline constexpr std::size_t kTxRecords = 16384;
static_assert(kTxRecords < (std::size_t{1} << (kDataTxBits - 2)), "24-bit numbers must unwrap unambiguously");

// ACK body.
inline constexpr std::size_t kOffAckSeen = 9;         // u64 cumulative DoF ("seen") number
inline constexpr std::size_t kOffAckLargest = 17;     // u64 largest transmission number received
inline constexpr std::size_t kOffAckDelay = 25;       // u32 microseconds between that arrival and this ACK
inline constexpr std::size_t kOffAckFirstCw = 29;     // u32 low bits of the oldest incomplete CW's id
inline constexpr std::size_t kOffAckCwCount = 33;     // u8 CW entries that follow
inline constexpr std::size_t kOffAckRangeCount = 34;  // u8 extra ranges after the first
inline constexpr std::size_t kOffAckFirstRange = 35;  // u16 transmissions below `largest` also received, contiguously
inline constexpr std::size_t kAckFixedSize = 37;
// Per CW entry, for CWs first_cw, first_cw + 1, ...: u8 rank held, u8 flags.
inline constexpr std::size_t kAckCwEntrySize = 2;
inline constexpr std::uint8_t kCwFlagComplete = 0x01;  // decoded (rank == n)
inline constexpr std::uint8_t kCwFlagKnown = 0x02;     // the receiver has a slot for it (else rank is 0 by default)
// Per extra range (QUIC-style, descending): u16 gap, u16 length. With `smallest` the previous
// range's smallest number: this range's largest = smallest - gap - 2, its smallest = largest - length.
inline constexpr std::size_t kAckRangeSize = 4;
// Most CW entries one ACK carries: every CW a decoder can hold open (HELLO max_open is a u8, and
// coding_windows() is at most 255), so an ACK can always describe every CW the sender has open
// (paper 002 section 2.1: the sender's enhanced retransmission needs each CW's missing DoF; counting
// unlisted CWs from acknowledged combinations would take dependent ones as received). An ACK lists
// only the CWs from the oldest incomplete one to the highest heard of, so it is this long only when
// that many CWs are outstanding behind a stalled one.
inline constexpr std::size_t kMaxAckCws = 255;
// Most extra ranges one ACK carries.
inline constexpr std::size_t kMaxAckRanges = 32;
// Extra ranges a receiver puts in one ACK (policy, not a parser limit): the newest holes are what
// the sender's loss detection needs; older ranges only cost reverse-path bytes.
inline constexpr std::size_t kAckRangesSent = 8;
inline constexpr std::size_t kMaxAckSize =
    kAckFixedSize + kMaxAckCws * kAckCwEntrySize + kMaxAckRanges * kAckRangeSize;

// DATA_ACK: a DATA datagram (same offsets, coded part shortened) followed by an ACK body (an ACK
// datagram without its common header, offsets shifted by kCommonHeaderSize) and a u16 trailer with
// that body's length. The ACK rides on data the sender sends anyway when the datagram has room
// (docs/tcpnc-wire.md, "DATA_ACK"), which saves the reverse ACK stream's own headers.
inline constexpr std::size_t kAckTrailerSize = 2;
inline constexpr std::size_t kAckBodyMinSize = kAckFixedSize - kCommonHeaderSize;

// HELLO / HELLO_ACK body.
inline constexpr std::size_t kOffHelloVersion = 9;    // u32 protocol version (kVersion)
inline constexpr std::size_t kOffHelloMaxPacket = 13; // u16 largest source packet the decoder takes
inline constexpr std::size_t kOffHelloMaxN = 15;      // u8 largest CW the decoder takes
inline constexpr std::size_t kOffHelloMaxOpen = 16;   // u8 CWs the decoder holds at once
inline constexpr std::size_t kOffHelloFlags = 17;     // u8 features this side has switched on
inline constexpr std::size_t kHelloSize = 18;
// Flag: inner header compression (below). Used in both directions when both HELLOs carry it.
inline constexpr std::uint8_t kHelloFlagHeaderCompression = 0x01;
inline constexpr std::uint8_t kHelloFlagFormPieces = 0x02;  // joins forms sent in pieces (kHcFormPiece)

// KEEPALIVE has the common header only.
inline constexpr std::size_t kKeepaliveSize = kCommonHeaderSize;

// Largest coding-layer overhead on a DATA payload: seeded repair header + symbol length prefix.
inline constexpr std::size_t kCodingOverhead = coding::kFixedHeaderSize + coding::kSeedSize + coding::kLengthPrefix;

// Inner header compression (docs/tcpnc-wire.md, "Inner header compression"). With it, each source
// a sender codes is one of these forms, told apart by the high nibble of its first byte:
inline constexpr std::uint8_t kHcFormBare4 = 0x4;        // the IPv4 packet itself, no context
inline constexpr std::uint8_t kHcFormBare6 = 0x6;        // the IPv6 packet itself, no context
inline constexpr std::uint8_t kHcFormFull = 0x1;         // [form|serial][context] + the whole packet;
                                                         // its header becomes the context's
inline constexpr std::uint8_t kHcFormCompressed = 0x2;   // [form|serial][context] + header changes + payload
inline constexpr std::uint8_t kHcFormOpaque = 0x3;       // [form] + bytes that are not IPv4/IPv6
// Bytes a form adds in front of a packet at most: the largest source grows by this much, so the
// inner MTU is this much smaller with header compression on.
inline constexpr std::size_t kHcMaxPrefix = 2;
// A form longer than one source travels as consecutive sources, each one piece of it:
// [kHcFormPiece << 4 | index << 2 | first | last][form serial] + bytes of the form. The form serial
// is the same for every piece of one form and counts forms split; index counts the form's pieces
// modulo 4. A receiver joins the pieces in stream order and drops (and counts) pieces out of turn.
// Lets the TUN MTU assume compression (below).
inline constexpr std::uint8_t kHcFormPiece = 0x5;
inline constexpr std::uint8_t kHcPieceFirst = 0x2;       // flag: the form's first piece
inline constexpr std::uint8_t kHcPieceLast = 0x1;        // flag: the form's last piece
inline constexpr unsigned kHcPieceIndexShift = 2;        // bits 3..2: the piece's index modulo 4
inline constexpr std::size_t kHcPiecePrefix = 2;
// The TUN MTU with pieces on assumes a bulk TCP/IPv4 segment with timestamps (52 header bytes,
// what Linux hosts send) travels as a compressed form of at most kHcBulkFormHead bytes before its
// payload (about 11 in practice): MSS = largest source - kHcBulkFormHead, MTU = MSS + 52. SYNs
// entering the tunnel have their MSS option clamped to that MSS, so hosts without timestamps (40
// header bytes) do not send segments that need two sources.
inline constexpr std::size_t kHcBulkFormHead = 16;
inline constexpr std::size_t kHcBulkTcpHeader = 52;
// Contexts per direction (the context byte).
inline constexpr std::size_t kHcContexts = 256;
// Longest header a context holds: IPv4 with options (60) + TCP with options (60).
inline constexpr std::size_t kHcMaxHeader = 120;
// The serial (low nibble of byte 0) counts packets per context modulo this.
inline constexpr std::uint8_t kHcSerialModulus = 16;
// A sender refreshes a context with a full header after this many compressed ones (bounds what a
// broken context could cost; the stream's order guarantee means it never breaks in practice).
inline constexpr std::uint32_t kHcRefreshEvery = 64;

}  // namespace ncgw::tcpnc
