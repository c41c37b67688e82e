// Inner header compression over the TCP/NC stream (docs/tcpnc-wire.md, "Inner header compression").
// Both ends keep kHcContexts contexts per direction; each holds the IP + TCP/UDP header of the last
// packet sent on it. A packet goes as the bytes of its header that differ from the header its
// context predicts (IPv4 identification + 1, TCP sequence + the last payload, lengths from the
// packet's size, the IPv4 header checksum recomputed), then its payload. Consecutive packets of a
// bulk TCP flow differ in 4-6 header bytes, so a 52-byte IPv4/TCP header with timestamps travels
// as about 11 bytes.
//
// The encoding is exact for any context content, so a context shared by two flows costs bytes,
// never correctness; it needs both ends to see the same packets in the same order, which the
// TCP/NC stream guarantees within a session (every coded source is delivered once, in order). A
// 4-bit serial per context catches a break of that promise anyway: the packet is dropped and
// counted, and the context stays unusable until the sender's next full header (at most
// kHcRefreshEvery packets later). Sans-I/O; contexts are allocated once, nothing per packet.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "transports/tcpnc/wire.h"

namespace ncgw::tcpnc {

// Bytes of an IP packet's header a context covers: the IP header plus a TCP or UDP header (for
// IPv4 fragments after the first, other protocols and IPv6 extension headers: the IP header
// alone). 0 when the packet is not well-formed IPv4 or IPv6.
std::size_t inner_header_length(std::span<const std::uint8_t> packet);

// One context: the header of the last packet sent (or received) on it.
struct HcContext {
  std::array<std::uint8_t, kHcMaxHeader> header{};
  std::uint16_t length = 0;        // header bytes held; 0: empty (or broken, at a receiver)
  std::uint16_t payload = 0;       // bytes that followed the header in that packet
  std::uint8_t serial = 0;         // that packet's serial
  std::uint32_t compressed = 0;    // compressed packets since the last full one (sender)
};

// What one direction's compressor or decompressor did.
struct HcCounters {
  std::uint64_t compressed = 0;       // packets sent or rebuilt from header changes
  std::uint64_t full = 0;             // packets with their whole header (a context starts or refreshes)
  std::uint64_t bare = 0;             // IP packets without a context (no parseable header)
  std::uint64_t opaque = 0;           // packets that are not IPv4/IPv6
  std::uint64_t bytes_saved = 0;      // header bytes not sent, less the prefixes added (sender)
  std::uint64_t malformed = 0;        // forms that do not parse (receiver; dropped)
  std::uint64_t context_breaks = 0;   // compressed forms out of turn or on an empty context (dropped)
};

// The sending end: turns IP packets into forms.
class HeaderCompressor {
 public:
  HeaderCompressor();
  // Forgets every context (a new session).
  void reset();
  // The context of `packet`'s flow from its inner 5-tuple's hash (transports/common/flow_key.h);
  // the sender uses the flow bucket its entrance queue already computed, which is the same hash.
  static std::uint8_t context_for(std::span<const std::uint8_t> packet);
  // Writes the form of `packet`, on context `context` (any value is correct; packets of one flow
  // on one context compress well), into `out` and returns the form's size; if the form is longer
  // than `out`, writes nothing, changes no context or counter and returns 0 (with room for
  // packet.size() + kHcMaxPrefix bytes every form fits).
  std::size_t compress(std::span<const std::uint8_t> packet, std::uint8_t context, std::span<std::uint8_t> out);
  const HcCounters& counters() const { return ctr_; }

 private:
  // write_compressed(): the compressed form would not fit `out` (nothing written).
  static constexpr std::size_t kNoRoom = SIZE_MAX;
  // Writes the compressed form against `c` if it is shorter than the full one and fits `out`; 0 if
  // it is not shorter, kNoRoom if it does not fit.
  std::size_t write_compressed(const HcContext& c, std::span<const std::uint8_t> packet, std::size_t header,
                               std::uint8_t context, std::uint8_t serial, std::span<std::uint8_t> out) const;

  std::vector<HcContext> contexts_;
  HcCounters ctr_;
};

// The receiving end: turns forms back into IP packets.
class HeaderDecompressor {
 public:
  HeaderDecompressor();
  // Forgets every context (a new session).
  void reset();
  // Writes the IP packet `form` carries into `out`; nothing (counted) when it cannot be rebuilt or
  // does not fit.
  std::optional<std::size_t> decompress(std::span<const std::uint8_t> form, std::span<std::uint8_t> out);
  const HcCounters& counters() const { return ctr_; }

 private:
  // Rebuilds a compressed form's packet from context `c`.
  std::optional<std::size_t> rebuild(HcContext& c, std::span<const std::uint8_t> changes, std::span<std::uint8_t> out);

  std::vector<HcContext> contexts_;
  HcCounters ctr_;
};

}  // namespace ncgw::tcpnc
