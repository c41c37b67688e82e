// The receiving half of a TCP/NC session: feeds combinations to the coding/ decoder, hands decoded
// IP packets out in order exactly once, and acknowledges every combination with the seen number,
// the received transmission ranges, the rank of each incomplete CW and the ACK delay.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "coding/decoder.h"
#include "transports/common/core.h"
#include "transports/tcpnc/ack_ranges.h"
#include "transports/tcpnc/form_pieces.h"
#include "transports/tcpnc/header_compression.h"
#include "transports/tcpnc/packet.h"
#include "transports/tcpnc/rx_loss.h"
#include "transports/tcpnc/settings.h"

namespace ncgw::tcpnc {

using transport::TimePoint;

// Receiver counters.
struct ReceiverCounters {
  std::uint64_t combinations_received = 0, innovative = 0, dependent = 0, duplicate = 0, stale = 0;
  std::uint64_t out_of_window = 0, malformed = 0, duplicate_tx = 0, delivered = 0, acks_sent = 0;
  std::uint64_t cws_decoded = 0, session_drops = 0;
  std::uint64_t header_drops = 0;  // decoded sources whose header compression form could not be rebuilt
};

// One direction's receiver. Inactive (ignores data) until start().
class Receiver {
 public:
  // Decoder limits follow from the settings (CW slots, n_max) and `max_packet`.
  Receiver(const TcpncCoreSettings& s, std::size_t max_packet);

  // Starts a fresh stream (CW 0, source 0) from a new peer session; its sources are header
  // compression forms when `decompress` (both sides have it on), else IP packets. Allocates the
  // decoder.
  void start(bool decompress);
  // Stops: undelivered packets are dropped (counted).
  void stop();
  bool active() const { return decoder_.has_value(); }
  // The limits announced to the peer in HELLO.
  Hello limits() const;

  // A DATA datagram's header and coded part (coding header + payload) arrived at `now`.
  void on_data(const DataHeader& d, std::span<const std::uint8_t> coded, TimePoint now);
  // Makes a delayed ACK due once its delay has passed.
  void on_timeout(TimePoint now);
  // When a delayed ACK falls due, if one is waiting.
  std::optional<TimePoint> next_deadline() const { return ack_pending_ ? std::nullopt : ack_deadline_; }
  // Whether an ACK is owed now (poll_ack would write one).
  bool ack_owed() const { return decoder_ && ack_pending_ && !ranges_.empty(); }
  // Writes an ACK if one is owed; returns its size.
  std::optional<std::size_t> poll_ack(std::span<std::uint8_t> out, const CommonHeader& h, TimePoint now);
  // Copies the next in-order decoded packet into `out` (a form that cannot be rebuilt is dropped,
  // counted, and the next one delivered).
  std::optional<std::size_t> poll_deliver(std::span<std::uint8_t> out);
  // Appends the receiver's figures to `out`.
  void stats(std::vector<transport::StatEntry>& out) const;
  const ReceiverCounters& counters() const { return ctr_; }
  // Loss on the incoming direction over the recent transmission numbers (stat rx_loss_rate).
  double rx_loss_rate() const { return rx_loss_.loss_rate(); }

 private:
  // Fills the CW entries of an ACK: from the oldest incomplete CW up to the highest CW heard of.
  void fill_cws(AckFrame& a) const;

  coding::DecoderConfig cfg_;
  bool header_compression_;                  // ours, from the settings (announced in HELLO)
  HeaderDecompressor decompressor_;          // this session's inner headers
  bool decompress_ = false;                  // this session's sources are forms
  std::vector<std::uint8_t> form_;           // a decoded form before it is rebuilt
  FormJoiner joiner_;                        // forms the peer sent in pieces
  std::optional<coding::Decoder> decoder_;
  AckRanges ranges_;
  RxLossMeter rx_loss_;                      // incoming-direction loss from transmission numbers
  mutable std::array<coding::CwStatus, kMaxAckCws> scratch_{};
  bool ack_pending_ = false;                 // an ACK is owed now
  std::optional<TimePoint> ack_deadline_;    // a delayed ACK is owed then
  std::uint32_t unacked_ = 0;                // DATA received since the last ACK
  std::uint32_t ack_every_ = 2;
  transport::Duration max_ack_delay_{};
  std::uint64_t highest_cw_ = 0;
  bool any_cw_ = false;
  std::uint64_t oldest_cw_seen_ = 0;   // decoder's oldest CW at the last look (counts decodes)
  TimePoint largest_arrival_{};
  ReceiverCounters ctr_;
};

}  // namespace ncgw::tcpnc
