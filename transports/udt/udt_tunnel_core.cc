#include "transports/udt/udt_tunnel_core.h"

#include <algorithm>
#include <bit>

#include "transports/udt/mss_rule.h"

namespace ncgw::udt {

using transport::SendResult;
using transport::TimePoint;

UdtTunnelSettings default_tunnel_settings() {
  UdtTunnelSettings s;
  s.conn.type = SocketType::dgram;
  s.conn.peer_idle_timeout_us = 10'000'000;
  s.conn.min_nak_interval_us = 50'000;
  s.conn.max_decreases_per_epoch = 1;  // see docs/udt-wire.md: 97% vs 89% of a drop-tail 100 Mbit/s path
  return s;
}

namespace {

// The `n` lowest set bits of `mask`.
std::uint64_t lowest_bits(std::uint64_t mask, unsigned n) {
  std::uint64_t out = 0;
  for (; mask != 0 && n > 0; --n) {
    const std::uint64_t bit = mask & (~mask + 1);
    out |= bit;
    mask &= mask - 1;
  }
  return out;
}

constexpr std::int64_t kSettleIntervalNs = 10'000'000;  // how often waiting flow buckets are moved

}  // namespace

UdtTunnelCore::UdtTunnelCore(const UdtTunnelSettings& s) : s_(s), set_(s.seed), tuner_(s.tuner) {
  s_.conn.type = SocketType::dgram;
  // Rendezvous connectors are told apart by peer address: one channel only.
  if (s_.role == TunnelRole::rendezvous) s_.channels = 1;
  target_ = s_.channels == 0 ? 1 : std::min<unsigned>(s_.channels, ChannelSet::kMaxSlots);
  if (s_.role == TunnelRole::listener) set_.endpoint().listen(s_.conn);
}

const Connection* UdtTunnelCore::connection() const {
  const std::uint64_t m = set_.connected_mask();
  return m ? set_.conn(std::countr_zero(m)) : nullptr;
}

int UdtTunnelCore::channels_connected() const { return std::popcount(set_.connected_mask()); }

int UdtTunnelCore::slot_of(std::span<const std::uint8_t> ip_packet) const {
  return map_.slot_of(ChannelMap::bucket_of(ip_packet));
}

std::optional<std::uint64_t> UdtTunnelCore::acked(int slot) const {
  const Connection* c = set_.conn(slot);
  if (!c || !c->connected()) return std::nullopt;
  return c->packets_acked();
}

void UdtTunnelCore::open_missing(TimePoint now) {
  if (transport::ns_since_epoch(now) < reconnect_at_ns_) return;
  for (auto live = static_cast<unsigned>(std::popcount(set_.used_mask())); live < target_; ++live) {
    if (!set_.open(s_.role == TunnelRole::rendezvous, s_.peer, s_.conn, now)) break;
  }
}

void UdtTunnelCore::run_tuner(TimePoint now) {
  if (s_.channels != 0 || !calls()) return;
  const std::int64_t n = transport::ns_since_epoch(now);
  if (set_.connected_mask() == 0) return;
  if (next_tuner_ns_ == 0) next_tuner_ns_ = n + s_.tuner_interval_us * 1000;  // first RTT samples
  if (n < next_tuner_ns_) return;
  next_tuner_ns_ = n + s_.tuner_interval_us * 1000;
  const double rtt_ms = set_.totals().rtt_us / 1000.0;
  if (rtt_ms <= 0) return;
  target_ = std::clamp<unsigned>(tuner_.on_rtt(rtt_ms), 1, ChannelSet::kMaxSlots);
}

void UdtTunnelCore::update_active(TimePoint now) {
  const std::uint64_t connected = set_.connected_mask();
  const std::uint64_t active = calls() ? lowest_bits(connected, target_) : connected;
  if (active != map_.active()) {
    map_.set_active(active);
    waiting_moves_ = ChannelMap::kBuckets;
    next_settle_ns_ = 0;
  }
  const std::int64_t n = transport::ns_since_epoch(now);
  if (waiting_moves_ > 0 && n >= next_settle_ns_) {
    waiting_moves_ = map_.settle([this](int slot) { return acked(slot); });
    next_settle_ns_ = n + kSettleIntervalNs;
  }
}

void UdtTunnelCore::maintain(TimePoint now) {
  if (s_.role == TunnelRole::listener) {
    // One channel: a new caller replaces the old at once (the peer restarted). Several: a new
    // channel never pushes out a live one (a caller replacing one broken channel would break
    // another, and so on); stale channels of a restarted caller end at the idle limit.
    set_.adopt_accepted(s_.channels == 1 ? 1 : ChannelSet::kMaxSlots);
  }
  started_ = true;
  set_.count_established();
  if (set_.reap() > 0) reconnect_at_ns_ = transport::ns_since_epoch(now) + s_.reconnect_delay_us * 1000;
  if (calls()) {
    run_tuner(now);
    open_missing(now);
  }
  update_active(now);
}

void UdtTunnelCore::on_datagram(std::span<const std::uint8_t> bytes, TimePoint now) {
  maintain(now);
  set_.endpoint().on_datagram(bytes, s_.peer, now);
  maintain(now);
}

void UdtTunnelCore::on_timeout(TimePoint now) {
  maintain(now);
  set_.endpoint().on_timeout(now);
  maintain(now);
}

SendResult UdtTunnelCore::send(std::span<const std::uint8_t> ip_packet, TimePoint now) {
  maintain(now);
  const std::size_t bucket = ChannelMap::bucket_of(ip_packet);
  const int slot = map_.route(bucket, [this](int s) { return acked(s); });
  Connection* c = set_.conn(slot);
  if (!c || !c->connected()) {
    ++dropped_not_connected_;
    return SendResult::not_connected;
  }
  if (ip_packet.size() > c->payload_size()) {
    ++dropped_too_big_;
    return SendResult::too_big;
  }
  if (entrance_full(*c, now)) {
    ++dropped_entrance_;
    return SendResult::buffer_full;
  }
  if (!c->send_message(ip_packet, now, s_.message_ttl_ms, true)) {
    ++dropped_full_;
    return SendResult::buffer_full;
  }
  map_.queued(bucket, c->packets_queued());
  return SendResult::accepted;
}

std::int64_t UdtTunnelCore::entrance_limit_us(const Connection& c) const {
  if (s_.entrance_queue_ms > 0) return std::int64_t{s_.entrance_queue_ms} * 1000;
  const std::int32_t min_rtt_us = c.min_rtt_us() > 0 ? c.min_rtt_us() : wire::kInitialRttUs;
  const auto budget = transport::entrance_wait_budget(std::chrono::microseconds(min_rtt_us));
  return std::chrono::duration_cast<std::chrono::microseconds>(budget).count();
}

bool UdtTunnelCore::entrance_full(const Connection& c, TimePoint now) const {
  if (s_.entrance_queue_ms == 0 || c.unsent_packets() < kMinEntranceQueue) return false;
  return c.unsent_wait_us(now) > entrance_limit_us(c);
}

std::optional<std::size_t> UdtTunnelCore::poll_transmit(std::span<std::uint8_t> out, TimePoint now) {
  maintain(now);
  const auto t = set_.endpoint().poll_transmit(out, now);
  if (!t) return std::nullopt;
  return t->size;
}

std::optional<std::size_t> UdtTunnelCore::poll_deliver(std::span<std::uint8_t> out) {
  const std::uint64_t used = set_.used_mask();
  for (int k = 0; used != 0 && k < ChannelSet::kMaxSlots; ++k) {
    const int slot = (deliver_rr_ + k) % ChannelSet::kMaxSlots;
    if (!(used >> slot & 1)) continue;
    Connection* c = set_.conn(slot);
    if (!c) continue;
    if (const auto n = c->recv_message(out)) {
      deliver_rr_ = (slot + 1) % ChannelSet::kMaxSlots;
      return n;
    }
  }
  return std::nullopt;
}

std::optional<TimePoint> UdtTunnelCore::next_deadline() const {
  if (!started_ && calls()) return transport::time_from_ns(0);
  auto d = set_.endpoint().next_deadline();
  auto sooner = [&d](std::int64_t ns) {
    const TimePoint t = transport::time_from_ns(ns);
    if (!d || t < *d) d = t;
  };
  if (set_.has_dead()) return transport::time_from_ns(0);  // let maintain() retire it
  const auto live = static_cast<unsigned>(std::popcount(set_.used_mask()));
  if (calls() && live < target_) sooner(reconnect_at_ns_);
  if (s_.channels == 0 && calls() && next_tuner_ns_ != 0) sooner(next_tuner_ns_);
  if (waiting_moves_ > 0) sooner(next_settle_ns_);
  return d;
}

std::size_t UdtTunnelCore::max_payload() const {
  const std::size_t configured = s_.conn.mss - s_.conn.ip_udp_overhead - wire::kHeaderSize;
  // The handshake takes the smaller of the two sides' MSS: a peer with a smaller one lowers what
  // this tunnel carries (and the MTU an ICMP Packet Too Big reports).
  std::size_t limit = configured;
  for_each_slot(set_.connected_mask(), [&](int slot) {
    limit = std::min<std::size_t>(limit, set_.conn(slot)->payload_size());
  });
  return limit;
}

double UdtTunnelCore::mss_rule_bytes(const ConnStats& st) const {
  // Paper 000's eq. 15 from what this connection measured (RTT, delivery rate, loss reported by
  // NAKs), capped by the MSS in use: the MSS it would advise for the next connection.
  const double header = s_.conn.ip_udp_overhead + wire::kHeaderSize;
  const double loss = st.sent > 0 ? static_cast<double>(st.snd_loss) / static_cast<double>(st.sent) : 0.0;
  const MssRuleInputs in{header, st.rtt_us / 2e6, st.delivery_rate_pps * static_cast<double>(max_payload()),
                         bit_error_rate(std::min(loss, 0.5), s_.conn.mss)};
  return suitable_mss(in, s_.conn.mss, wire::kMinMss);
}

std::vector<transport::StatEntry> UdtTunnelCore::stats() const {
  const ConnStats st = set_.totals();  // gauges summed over connected channels (RTT: their mean)
  const double payload = static_cast<double>(max_payload());
  int with_data = 0;  // connected channels that have carried data either way
  for_each_slot(set_.connected_mask(), [&](int slot) {
    const ConnStats c = set_.conn(slot)->stats();
    with_data += c.sent + c.received > 0 ? 1 : 0;
  });
  std::vector<transport::StatEntry> out{
      {"connected", set_.connected_mask() != 0 ? 1.0 : 0.0},
      {"channels_connected", static_cast<double>(channels_connected())},
      {"channels_with_data", static_cast<double>(with_data)},
      {"channels_target", static_cast<double>(target_)},
      {"channels_active", static_cast<double>(std::popcount(map_.active()))},
      {"act_rtt_min_ms", s_.channels == 0 ? tuner_.rtt_min() : 0.0},
      {"flow_moves", static_cast<double>(map_.moves())},
      {"sessions", static_cast<double>(set_.sessions())},
      {"sending_period_us", st.period_us},
      {"congestion_window_packets", st.cwnd},
      {"flow_window_packets", static_cast<double>(st.flow_window)},
      {"rtt_ms", st.rtt_us / 1000.0},
      {"rtt_var_ms", st.rtt_var_us / 1000.0},
      {"estimated_capacity_mbps", st.capacity_pps * payload * 8 / 1e6},
      {"delivery_rate_mbps", st.delivery_rate_pps * payload * 8 / 1e6},
      {"packets_in_flight", static_cast<double>(st.in_flight)},
      {"send_buffer_packets", static_cast<double>(st.send_buffered)},
      {"unsent_packets", static_cast<double>(st.unsent)},
      {"min_rtt_ms", st.min_rtt_us / 1000.0},
      {"packets_sent", static_cast<double>(st.sent)},
      {"packets_received", static_cast<double>(st.received)},
      {"packets_retransmitted", static_cast<double>(st.retransmitted)},
      {"sender_loss_packets", static_cast<double>(st.snd_loss)},
      {"receiver_loss_packets", static_cast<double>(st.rcv_loss)},
      {"dropped_not_connected", static_cast<double>(dropped_not_connected_)},
      {"dropped_buffer_full", static_cast<double>(dropped_full_)},
      {"dropped_entrance_queue", static_cast<double>(dropped_entrance_)},
      {"dropped_too_big", static_cast<double>(dropped_too_big_)},
      {"dropped_channel_lost", static_cast<double>(set_.lost_with_channels())},
      {"channels_ended_broken", static_cast<double>(set_.ended_by_state()[static_cast<std::size_t>(ConnState::broken)])},
      {"channels_ended_timed_out", static_cast<double>(set_.ended_by_state()[static_cast<std::size_t>(ConnState::timed_out)])},
      {"channels_ended_rejected", static_cast<double>(set_.ended_by_state()[static_cast<std::size_t>(ConnState::rejected)])},
      {"channels_ended_closed", static_cast<double>(set_.ended_by_state()[static_cast<std::size_t>(ConnState::closed)])},
      {"slow_start_threshold_packets", st.ssthresh},  // PaUDT only (0 under CUDTCC)
      {"mss_bytes", static_cast<double>(s_.conn.mss)},
      {"mss_rule_bytes", mss_rule_bytes(st)},
  };
  if (s_.conn.congestion_control == CcKind::bbr) append_bbr_stats(out, payload);
  return out;
}

void UdtTunnelCore::append_bbr_stats(std::vector<transport::StatEntry>& out, double payload) const {
  double rate_pps = 0, min_rtt_ms = 0;
  int startup = 0, probe_rtt = 0, n = 0;
  for_each_slot(set_.connected_mask(), [&](int slot) {
    const transport::BbrController* b = set_.conn(slot)->bbr();
    if (b == nullptr) return;
    using Mode = transport::BbrController::Mode;
    rate_pps += b->bw();
    const double rtt = std::chrono::duration<double, std::milli>(b->min_rtt()).count();
    min_rtt_ms = n == 0 ? rtt : std::min(min_rtt_ms, rtt);
    startup += b->mode() == Mode::kStartup ? 1 : 0;
    probe_rtt += b->mode() == Mode::kProbeRtt ? 1 : 0;
    ++n;
  });
  out.push_back({"bbr_path_rate_mbps", rate_pps * payload * 8 / 1e6});  // summed over channels
  out.push_back({"bbr_min_rtt_ms", min_rtt_ms});                        // smallest over channels
  out.push_back({"bbr_channels_in_startup", static_cast<double>(startup)});
  out.push_back({"bbr_channels_in_probe_rtt", static_cast<double>(probe_rtt)});
}

}  // namespace ncgw::udt
