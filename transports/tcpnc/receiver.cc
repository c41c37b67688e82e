#include "transports/tcpnc/receiver.h"

#include <algorithm>

#include "coding/header.h"
#include "transports/common/serial_number.h"

namespace ncgw::tcpnc {

Receiver::Receiver(const TcpncCoreSettings& s, std::size_t max_packet)
    : header_compression_(s.header_compression), form_(max_packet), joiner_(coding::kMaxPacket + kHcMaxPrefix), ack_every_(std::max<std::uint32_t>(1, s.ack_every)),
      max_ack_delay_(std::chrono::microseconds(s.max_ack_delay_us)) {
  cfg_.max_open = coding_windows(s);
  cfg_.max_n = std::min<std::size_t>(s.n_max, coding::kMaxWindow);
  cfg_.max_packet = max_packet;
}

Hello Receiver::limits() const {
  Hello h;
  h.max_packet = static_cast<std::uint16_t>(cfg_.max_packet);
  h.max_n = static_cast<std::uint8_t>(cfg_.max_n);
  h.max_open = static_cast<std::uint8_t>(cfg_.max_open);
  h.flags = header_compression_ ? kHelloFlagHeaderCompression | kHelloFlagFormPieces : 0;
  return h;
}

void Receiver::start(bool decompress) {
  stop();
  decoder_.emplace(cfg_);  // allocates: once per session, never per packet
  decompress_ = decompress;
  decompressor_.reset();
  joiner_.reset();
}

void Receiver::stop() {
  if (decoder_) ctr_.session_drops += decoder_->seen() - decoder_->next_release();
  decoder_.reset();
  ranges_.clear();
  rx_loss_.clear();
  ack_pending_ = false;
  ack_deadline_.reset();
  unacked_ = 0;
  any_cw_ = false;
  highest_cw_ = oldest_cw_seen_ = 0;
}

void Receiver::on_data(const DataHeader& wire, std::span<const std::uint8_t> coded, TimePoint now) {
  if (!decoder_) return;
  DataHeader d = wire;  // 24-bit transmission number on the wire: unwrap next to the largest received
  if (!ranges_.empty()) d.tx = transport::unwrap_serial<kDataTxBits>(ranges_.largest() + 1, wire.tx);
  ++ctr_.combinations_received;
  if (!ranges_.empty() && d.tx > ranges_.largest() + kTxRecords) { ++ctr_.out_of_window; return; }
  // Delayed ACK (as TCP): every ack_every-th datagram, or max_ack_delay after the first one; at
  // once for anything out of order (a gap, a late or duplicate arrival): that is what the sender's
  // loss detection waits for.
  const bool in_order = ranges_.empty() || d.tx == ranges_.largest() + 1;
  if (!in_order || ++unacked_ >= ack_every_) ack_pending_ = true;
  else if (!ack_deadline_) ack_deadline_ = now + max_ack_delay_;
  if (ranges_.contains(d.tx)) { ++ctr_.duplicate_tx; return; }
  rx_loss_.on_received(d.tx);  // arrived, whatever the decoder makes of it
  const auto parsed = coding::parse_combination(coded);
  if (!parsed) { ++ctr_.malformed; return; }
  const std::uint64_t id = coding::unwrap_cw_id(decoder_->oldest_cw(), static_cast<std::uint16_t>(parsed->header.cw_id));
  switch (decoder_->feed_datagram(coded)) {
    case coding::FeedResult::kInnovative: ++ctr_.innovative; break;
    case coding::FeedResult::kDependent: ++ctr_.dependent; break;
    case coding::FeedResult::kDuplicate: ++ctr_.duplicate; break;
    case coding::FeedResult::kStale: ++ctr_.stale; break;
    // Not taken in: left out of the ACK ranges, so the sender counts it lost and repairs it.
    case coding::FeedResult::kOutOfWindow: ++ctr_.out_of_window; return;
    case coding::FeedResult::kMalformed: ++ctr_.malformed; return;
  }
  ranges_.insert(d.tx);
  if (ranges_.largest() == d.tx) largest_arrival_ = now;
  if (!any_cw_ || id > highest_cw_) { highest_cw_ = id; any_cw_ = true; }
}

void Receiver::fill_cws(AckFrame& a) const {
  const std::size_t n = decoder_->incomplete(scratch_);
  if (n == 0) {
    const std::uint64_t next = any_cw_ ? highest_cw_ + 1 : decoder_->oldest_cw();
    a.first_cw = static_cast<std::uint32_t>(std::max(next, decoder_->oldest_cw()));
    a.cw_count = 0;
    return;
  }
  const std::uint64_t first = scratch_[0].cw_id;
  a.first_cw = static_cast<std::uint32_t>(first);
  const std::uint64_t last = std::max(first, highest_cw_);
  a.cw_count = static_cast<std::uint8_t>(std::min<std::uint64_t>(last - first + 1, kMaxAckCws));
  for (std::size_t i = 0; i < a.cw_count; ++i) {
    const auto st = decoder_->status(first + i);
    if (!st) { a.cws[i] = {0, 0}; continue; }
    a.cws[i].rank = static_cast<std::uint8_t>(std::min(st->rank, 255u));
    a.cws[i].flags = static_cast<std::uint8_t>(kCwFlagKnown | (st->complete ? kCwFlagComplete : 0));
  }
}

void Receiver::on_timeout(TimePoint now) {
  if (ack_deadline_ && *ack_deadline_ <= now) ack_pending_ = true;
}

std::optional<std::size_t> Receiver::poll_ack(std::span<std::uint8_t> out, const CommonHeader& h, TimePoint now) {
  if (!decoder_ || !ack_pending_ || ranges_.empty()) return std::nullopt;
  AckFrame a;
  a.seen = decoder_->seen();
  ranges_.fill(a);
  const auto delay = std::chrono::duration_cast<std::chrono::microseconds>(now - largest_arrival_).count();
  a.ack_delay_us = static_cast<std::uint32_t>(std::clamp<std::int64_t>(delay, 0, UINT32_MAX));
  fill_cws(a);
  const std::size_t n = write_ack(out, h, a);
  if (n == 0) return std::nullopt;
  ack_pending_ = false;
  ack_deadline_.reset();
  unacked_ = 0;
  ++ctr_.acks_sent;
  return n;
}

std::optional<std::size_t> Receiver::poll_deliver(std::span<std::uint8_t> out) {
  while (decoder_) {
    const auto r = decoder_->pop(decompress_ ? std::span<std::uint8_t>(form_) : out);
    const std::uint64_t oldest = decoder_->oldest_cw();
    if (oldest > oldest_cw_seen_) { ctr_.cws_decoded += oldest - oldest_cw_seen_; oldest_cw_seen_ = oldest; }
    if (!r) return std::nullopt;
    std::optional<std::size_t> n = r->length;
    if (decompress_) {
      const auto form = joiner_.add(std::span<const std::uint8_t>(form_).first(r->length));
      if (!form) continue;  // a piece of a form still incomplete, or one dropped (counted)
      n = decompressor_.decompress(*form, out);
    }
    if (!n) { ++ctr_.header_drops; continue; }
    ++ctr_.delivered;
    return n;
  }
  return std::nullopt;
}

void Receiver::stats(std::vector<transport::StatEntry>& out) const {
  auto add = [&out](const char* name, std::uint64_t v) { out.push_back({name, static_cast<double>(v)}); };
  add("combinations_received", ctr_.combinations_received);
  add("innovative_received", ctr_.innovative);
  add("dependent_received", ctr_.dependent);
  add("duplicate_received", ctr_.duplicate + ctr_.duplicate_tx);
  add("stale_received", ctr_.stale);
  add("out_of_window_received", ctr_.out_of_window);
  add("malformed_received", ctr_.malformed);
  add("decodes", ctr_.cws_decoded);
  add("delivered", ctr_.delivered);
  add("acks_sent", ctr_.acks_sent);
  add("receive_session_drops", ctr_.session_drops);
  add("header_drops", ctr_.header_drops);
  const HcCounters& hc = decompressor_.counters();
  add("headers_rebuilt", hc.compressed);
  add("forms_joined", joiner_.counters().joined);
  add("form_pieces_dropped", joiner_.counters().broken);
  add("header_contexts_broken", hc.context_breaks);
  out.push_back({"rx_loss_rate", rx_loss_.loss_rate()});
}

}  // namespace ncgw::tcpnc
