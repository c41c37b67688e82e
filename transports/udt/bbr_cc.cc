#include "transports/udt/bbr_cc.h"

#include <algorithm>
#include <bit>

#include "transports/udt/seq.h"

namespace ncgw::udt {

void BbrCc::init(std::int32_t snd_curr_seq, std::int32_t max_cwnd, std::int32_t initial_window, std::uint64_t seed,
                 std::uint32_t ring_packets) {
  bbr_ = transport::BbrController(transport::ControllerSettings{transport::CcAlgorithm::kBbr,
                                                                 static_cast<double>(std::max(initial_window, 2)),
                                                                 static_cast<double>(std::max(max_cwnd, 2)), seed});
  sampler_.reset();
  ring_.assign(std::bit_ceil(std::max<std::uint32_t>(ring_packets, 64)), Sent{});
  mask_ = static_cast<std::uint32_t>(ring_.size() - 1);
  lost_since_ack_ = 0;
  last_sent_ = snd_curr_seq;
}

void BbrCc::on_sent(std::int32_t seq, TimePoint now, std::uint32_t in_flight, bool retransmission) {
  Sent& s = slot(seq);
  s.snapshot = sampler_.on_sent(now, in_flight);
  s.retransmitted = retransmission;
  s.lost = false;
  if (!retransmission) last_sent_ = seq;
  bbr_.on_sent(now, in_flight);
}

void BbrCc::on_app_limited(std::uint32_t in_flight) { sampler_.mark_app_limited(in_flight); }

void BbrCc::on_loss(std::int32_t first, std::int32_t last) {
  const std::int32_t n = std::min<std::int32_t>(seq::len(first, last), static_cast<std::int32_t>(ring_.size()));
  for (std::int32_t i = 0, s = first; i < n; ++i, s = seq::inc(s)) {
    Sent& e = slot(s);
    if (e.lost) continue;
    e.lost = true;
    ++lost_since_ack_;
    sampler_.on_lost();
  }
}

void BbrCc::on_ack(std::int32_t last_ack, std::int32_t ack, TimePoint now, std::uint32_t in_flight,
                   std::int32_t arrival_rate, std::int32_t rtt_us) {
  const std::int32_t n = seq::off(last_ack, ack);
  if (n <= 0) return;
  // More than the ring holds cannot be in flight; older entries were overwritten, so only the
  // newest ring's worth is sampled.
  const std::int32_t sampled = std::min<std::int32_t>(n, static_cast<std::int32_t>(ring_.size()));
  bool hole_filled = false;
  for (std::int32_t s = seq::add(last_ack, n - sampled); s != ack; s = seq::inc(s)) {
    hole_filled = hole_filled || slot(s).retransmitted;
    sampler_.on_acked(slot(s).snapshot, now);
  }
  transport::AckEvent e;
  e.now = now;
  e.acked = static_cast<std::uint32_t>(n);
  e.lost = lost_since_ack_;
  e.sample = sampler_.finish(bbr_.min_rtt());
  constexpr std::int32_t kMaxRttUs = 60'000'000;  // a peer's ACK can carry any value
  if (rtt_us > 0) e.rtt = std::chrono::microseconds(std::min(rtt_us, kMaxRttUs));
  e.srtt = std::chrono::microseconds(srtt_us_);
  e.in_flight = in_flight;
  e.delivered = sampler_.delivered();
  e.arrival_rate = static_cast<double>(std::max(arrival_rate, 0));  // 0: no rate sample from this ACK
  lost_since_ack_ = 0;
  bbr_.on_ack(e);
  if (hole_filled) rebase_in_flight(ack, now);
}

void BbrCc::rebase_in_flight(std::int32_t ack, TimePoint now) {
  if (seq::cmp(ack, last_sent_) > 0) return;
  const std::int32_t n = std::min<std::int32_t>(seq::len(ack, last_sent_), static_cast<std::int32_t>(ring_.size()));
  for (std::int32_t i = 0, s = ack; i < n; ++i, s = seq::inc(s)) {
    transport::DeliverySnapshot& d = slot(s).snapshot;
    d.delivered = sampler_.delivered();
    d.lost = sampler_.lost();
    d.delivered_time = now;
    d.first_sent_time = d.sent;
  }
}

double BbrCc::cwnd() const {
  const bool measured = bbr_.bw() > 0 && bbr_.min_rtt() > transport::Duration::zero();
  if (!measured || bbr_.mode() == transport::BbrController::Mode::kProbeRtt) return bbr_.cwnd();
  return bbr_.cwnd() + 2 * bbr_.bdp();
}

double BbrCc::period_us() const {
  const double rate = bbr_.pacing_rate();
  return rate > 0 ? 1e6 / rate : 1.0;
}

}  // namespace ncgw::udt
