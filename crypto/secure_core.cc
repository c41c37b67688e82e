#include "crypto/secure_core.h"

#include <algorithm>

#include "transports/common/earliest.h"

namespace ncgw::crypto {

using transport::TimePoint;

// Largest datagram the secure layer opens (a UDP payload).
constexpr std::size_t kMaxRecord = 65536;
// Bytes of opened payloads one batch collects before they go to the inner core (a larger batch
// goes in several parts): 64 records of 4 KiB.
constexpr std::size_t kOpenedBytes = 4 * kMaxRecord;

SecureCore::SecureCore(std::unique_ptr<transport::Core> inner, SessionSettings settings,
                       std::size_t max_inner_datagram)
    : inner_(std::move(inner)), session_(std::move(settings)), scratch_(kOpenedBytes),
      staged_(kStaged, std::min(max_inner_datagram, kMaxRecord)) {}

void SecureCore::on_datagram(std::span<const std::uint8_t> bytes, TimePoint now) {
  last_now_ = now;
  const auto payload = session_.receive(bytes, now, scratch_);
  if (payload && !payload->empty()) inner_->on_datagram(*payload, now);
}

void SecureCore::on_datagrams(std::span<const transport::Arrival> batch) {
  std::size_t used = 0, opened = 0;
  for (const transport::Arrival& d : batch) {
    if (scratch_.size() - used < d.bytes.size() || opened == opened_.size()) {
      inner_->on_datagrams(std::span(opened_).first(opened));
      used = opened = 0;
    }
    last_now_ = d.at;
    const auto payload = session_.receive(d.bytes, d.at, std::span(scratch_).subspan(used));
    if (!payload || payload->empty()) continue;
    opened_[opened++] = {*payload, d.at};
    used += d.bytes.size();
  }
  if (opened != 0) inner_->on_datagrams(std::span(opened_).first(opened));
}

void SecureCore::on_timeout(TimePoint now) {
  last_now_ = now;
  session_.on_timeout(now);
  const auto inner_deadline = inner_->next_deadline();
  if (inner_deadline && *inner_deadline <= now) inner_->on_timeout(now);
}

transport::SendResult SecureCore::send(std::span<const std::uint8_t> ip_packet, TimePoint now) {
  return inner_->send(ip_packet, now);
}

std::optional<std::size_t> SecureCore::poll_transmit(std::span<std::uint8_t> out, TimePoint now) {
  const std::array<std::span<std::uint8_t>, 1> slots{out};
  std::array<std::size_t, 1> length{};
  if (poll_transmits(slots, length, now) == 0) return std::nullopt;
  return length[0];
}

std::size_t SecureCore::poll_transmits(std::span<const std::span<std::uint8_t>> slots,
                                       std::span<std::size_t> lengths, TimePoint now) {
  last_now_ = now;
  slots = slots.first(std::min(slots.size(), inner_slots_.size()));
  std::size_t n = 0;
  for (; n < slots.size(); ++n) {   // handshakes, cookies, keep-alives
    const auto m = session_.poll_control(slots[n], now);
    if (!m) break;
    lengths[n] = *m;
  }
  if (!session_.can_send(now)) {
    stage_inner(now);
    return n;
  }
  for (; n < slots.size(); ++n) {
    if (slots[n].size() <= wire::kRecordOverhead) return n;
    const auto m = send_staged(slots[n], now);
    if (!m) break;
    lengths[n] = *m;
  }
  const std::size_t first = n;
  for (; n < slots.size() && slots[n].size() > wire::kRecordOverhead; ++n) {
    inner_slots_[n - first] = slots[n].subspan(wire::kDataHeaderSize, slots[n].size() - wire::kRecordOverhead);
  }
  const std::size_t m = inner_->poll_transmits(std::span(inner_slots_).first(n - first), lengths.subspan(first), now);
  for (std::size_t i = first; i < first + m; ++i) lengths[i] = session_.seal(slots[i], lengths[i], now);
  return first + m;
}

void SecureCore::stage_inner(TimePoint now) {
  while (auto n = inner_->poll_transmit(scratch_, now)) {
    if (staged_.full()) {   // the oldest goes (the transport's recovery resends it)
      staged_.pop();
      session_.count_tx_no_session();
    }
    if (!staged_.push(std::span(scratch_).first(*n))) session_.count_tx_no_session();  // larger than promised
  }
}

std::optional<std::size_t> SecureCore::send_staged(std::span<std::uint8_t> out, TimePoint now) {
  while (!staged_.empty()) {
    const auto n = staged_.pop_into(out.subspan(wire::kDataHeaderSize, out.size() - wire::kRecordOverhead));
    if (!n) {  // does not fit this buffer: dropped (the transport's recovery resends it)
      staged_.pop();
      session_.count_tx_no_session();
      continue;
    }
    session_.count_tx_staged();
    return session_.seal(out, *n, now);
  }
  return std::nullopt;
}

std::optional<std::size_t> SecureCore::poll_deliver(std::span<std::uint8_t> out) { return inner_->poll_deliver(out); }

std::optional<TimePoint> SecureCore::next_deadline() const {
  transport::Earliest e;
  e.offer(inner_->next_deadline());
  e.offer(session_.next_deadline());
  return e.get();
}

std::size_t SecureCore::max_payload() const { return inner_->max_payload(); }

std::vector<transport::StatEntry> SecureCore::stats() const {
  std::vector<transport::StatEntry> s = inner_->stats();
  const SessionCounters& c = session_.counters();
  const auto age = session_.key_age(last_now_);
  auto add = [&](const char* name, double v) { s.push_back({name, v}); };
  add("sec_handshake_age_s", age ? std::chrono::duration<double>(*age).count() : -1);
  add("sec_key_epoch", static_cast<double>(session_.key_epoch()));
  add("sec_rx_records", c.rx_records);
  add("sec_tx_records", c.tx_records);
  add("sec_handshakes_initiated", c.handshakes_initiated);
  add("sec_handshakes_answered", c.handshakes_answered);
  add("sec_handshakes_completed", c.handshakes_completed);
  add("sec_handshakes_crossed", c.handshakes_crossed);
  add("sec_cookie_replies_sent", c.cookie_replies_sent);
  add("sec_cookies_received", c.cookies_received);
  add("sec_drop_malformed", c.drop_malformed);
  add("sec_drop_bad_tag", c.drop_bad_tag);
  add("sec_drop_replay", c.drop_replay);
  add("sec_drop_unknown_key", c.drop_unknown_key);
  add("sec_drop_bad_mac1", c.drop_bad_mac1);
  add("sec_drop_cookie_needed", c.drop_cookie_needed);
  add("sec_drop_rate_limited", c.drop_rate_limited);
  add("sec_drop_handshake_invalid", c.drop_handshake_invalid);
  add("sec_drop_wrong_peer", c.drop_wrong_peer);
  add("sec_drop_stale_timestamp", c.drop_stale_timestamp);
  add("sec_drop_bad_cookie", c.drop_bad_cookie);
  add("sec_tx_no_session", c.tx_no_session);
  add("sec_tx_staged", c.tx_staged);
  return s;
}

}  // namespace ncgw::crypto
