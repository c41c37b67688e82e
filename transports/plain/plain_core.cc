#include "transports/plain/plain_core.h"

#include <cstring>

namespace ncgw::plain {

using transport::SendResult;
using transport::StatEntry;
using transport::TimePoint;

PlainCore::PlainCore(const PlainCoreSettings& settings)
    : settings_(settings),
      send_queue_(settings.send_queue_packets, settings.max_datagram - kHeaderSize),
      deliver_queue_(settings.deliver_queue_packets, settings.max_datagram - kHeaderSize) {}

void PlainCore::on_datagram(std::span<const std::uint8_t> bytes, TimePoint now) {
  const Decoded d = decode_datagram(bytes);
  if (d.error != DecodeError::none) {
    ++counters_.drop_malformed;
    return;
  }
  if (d.header.session_id != settings_.session_id) {
    ++counters_.drop_bad_session;
    return;
  }
  last_rx_ = now;
  rx_seq_.on_arrival(d.header.seq);
  if (d.header.type == PacketType::keepalive) {
    ++counters_.keepalives_received;
    return;
  }
  if (!deliver_queue_.push(d.payload)) {
    ++counters_.drop_deliver_full;
    return;
  }
  ++counters_.rx_packets;
  counters_.rx_bytes += d.payload.size();
}

void PlainCore::on_timeout(TimePoint now) {
  if (auto deadline = next_deadline(); deadline && now >= *deadline) keepalive_due_ = true;
}

SendResult PlainCore::send(std::span<const std::uint8_t> ip_packet, TimePoint /*now*/) {
  if (ip_packet.size() > max_payload()) {
    ++counters_.drop_too_big;
    return SendResult::too_big;
  }
  if (!send_queue_.push(ip_packet)) {
    ++counters_.drop_entrance_full;
    return SendResult::buffer_full;
  }
  return SendResult::accepted;
}

bool PlainCore::peer_silent(TimePoint now) const {
  const auto since = last_rx_ ? last_rx_ : first_tx_;
  return since && now - *since > settings_.peer_silence_timeout;
}

void PlainCore::stamp_header(Header& h, TimePoint now) {
  h.session_id = settings_.session_id;
  h.seq = tx_seq_++;
  if (!first_tx_) first_tx_ = now;
  last_tx_ = now;
  keepalive_due_ = false;
}

std::optional<std::size_t> PlainCore::poll_transmit(std::span<std::uint8_t> out, TimePoint now) {
  Header h;
  if (!send_queue_.empty()) {
    const auto packet = send_queue_.front();
    if (out.size() < kHeaderSize + packet.size()) return std::nullopt;
    if (peer_silent(now)) ++counters_.tx_while_peer_silent;
    stamp_header(h, now);
    encode_header(h, out);
    std::memcpy(out.data() + kHeaderSize, packet.data(), packet.size());
    ++counters_.tx_packets;
    counters_.tx_bytes += packet.size();
    send_queue_.pop();
    return kHeaderSize + packet.size();
  }
  if (keepalive_due_ && out.size() >= kHeaderSize) {
    h.type = PacketType::keepalive;
    stamp_header(h, now);
    encode_header(h, out);
    ++counters_.keepalives_sent;
    return kHeaderSize;
  }
  return std::nullopt;
}

std::optional<std::size_t> PlainCore::poll_deliver(std::span<std::uint8_t> out) {
  return deliver_queue_.pop_into(out);
}

std::optional<TimePoint> PlainCore::next_deadline() const {
  if (settings_.keepalive_interval.count() == 0 || keepalive_due_) return std::nullopt;
  if (!last_tx_) return TimePoint{};  // announce ourselves at once
  return *last_tx_ + settings_.keepalive_interval;
}

std::size_t PlainCore::max_payload() const { return settings_.max_datagram - kHeaderSize; }

std::vector<StatEntry> PlainCore::stats() const {
  const PlainCounters& c = counters_;
  const SeqCounters& q = rx_seq_.counters();
  return {
      {"tx_packets", double(c.tx_packets)},
      {"tx_bytes", double(c.tx_bytes)},
      {"rx_packets", double(c.rx_packets)},
      {"rx_bytes", double(c.rx_bytes)},
      {"keepalives_sent", double(c.keepalives_sent)},
      {"keepalives_received", double(c.keepalives_received)},
      {"drop_entrance_full", double(c.drop_entrance_full)},
      {"drop_too_big", double(c.drop_too_big)},
      {"drop_deliver_full", double(c.drop_deliver_full)},
      {"drop_bad_session", double(c.drop_bad_session)},
      {"drop_malformed", double(c.drop_malformed)},
      {"tx_while_peer_silent", double(c.tx_while_peer_silent)},
      {"rx_lost", double(q.lost())},
      {"rx_seq_gaps", double(q.gaps)},
      {"rx_reordered", double(q.late)},
      {"rx_duplicates", double(q.duplicates)},
      {"rx_seq_stale", double(q.stale)},
      {"rx_seq_resyncs", double(q.resyncs)},
      {"send_queue", double(send_queue_.size())},
  };
}

}  // namespace ncgw::plain
