#include "transports/udt/rate_control.h"

namespace ncgw::udt {

void RateControl::init(const CcStart& s) {
  if (s.kind == CcKind::paudt) {
    PaudtCc p;
    p.init(s.snd_curr_seq, s.max_cwnd, s.initial_window);
    cc_ = p;
    return;
  }
  if (s.kind == CcKind::bbr) {
    cc_.emplace<BbrCc>().init(s.snd_curr_seq, s.max_cwnd, s.initial_window, s.seed, s.send_buffer_packets);
    return;
  }
  Cudtcc c;
  c.init(s.snd_curr_seq, s.max_cwnd, s.mss, transport::us_since_epoch(s.now), s.seed, s.max_decreases,
         s.initial_window);
  cc_ = c;
}

void RateControl::set_rtt(std::int32_t rtt_us) {
  std::visit([&](auto& c) { c.set_rtt(rtt_us); }, cc_);
}

void RateControl::set_rcv_rate(std::int32_t r) {
  if (auto* c = std::get_if<Cudtcc>(&cc_)) c->set_rcv_rate(r);
}

void RateControl::set_bandwidth(std::int32_t b) {
  if (auto* c = std::get_if<Cudtcc>(&cc_)) c->set_bandwidth(b);
}

void RateControl::set_snd_curr_seq(std::int32_t s) {
  std::visit([&](auto& c) { c.set_snd_curr_seq(s); }, cc_);
}

void RateControl::on_sent(std::int32_t seq, TimePoint now, std::uint32_t in_flight, bool retransmission) {
  if (auto* c = std::get_if<BbrCc>(&cc_)) c->on_sent(seq, now, in_flight, retransmission);
}

void RateControl::on_app_limited(std::uint32_t in_flight) {
  if (auto* c = std::get_if<BbrCc>(&cc_)) c->on_app_limited(in_flight);
}

void RateControl::on_ack(std::int32_t last_ack, std::int32_t ack, TimePoint now, std::uint32_t in_flight,
                         std::int32_t arrival_rate, std::int32_t rtt_us) {
  if (auto* c = std::get_if<Cudtcc>(&cc_)) c->on_ack(ack, transport::us_since_epoch(now));
  else if (auto* p = std::get_if<PaudtCc>(&cc_)) p->on_ack(ack);
  else std::get<BbrCc>(cc_).on_ack(last_ack, ack, now, in_flight, arrival_rate, rtt_us);
}

void RateControl::on_loss(std::int32_t first_loss) {
  if (auto* c = std::get_if<Cudtcc>(&cc_)) c->on_loss(first_loss);
  else if (auto* p = std::get_if<PaudtCc>(&cc_)) p->on_loss(first_loss);
}

void RateControl::on_loss_range(std::int32_t first, std::int32_t last) {
  if (auto* c = std::get_if<BbrCc>(&cc_)) c->on_loss(first, last);
}

void RateControl::on_timeout(TimePoint now) {
  if (auto* c = std::get_if<Cudtcc>(&cc_)) c->on_timeout();
  else if (auto* p = std::get_if<PaudtCc>(&cc_)) p->on_timeout();
  else std::get<BbrCc>(cc_).on_timeout(now);
}

void RateControl::on_congestion_warning() {
  std::visit([](auto& c) { c.on_congestion_warning(); }, cc_);
}

double RateControl::period_us() const {
  return std::visit([](const auto& c) { return c.period_us(); }, cc_);
}

double RateControl::cwnd() const {
  return std::visit([](const auto& c) { return c.cwnd(); }, cc_);
}

bool RateControl::slow_start() const {
  return std::visit([](const auto& c) { return c.slow_start(); }, cc_);
}

double RateControl::ssthresh() const {
  const auto* p = std::get_if<PaudtCc>(&cc_);
  return p ? p->ssthresh() : 0.0;
}

const transport::BbrController* RateControl::bbr() const {
  const auto* c = std::get_if<BbrCc>(&cc_);
  return c ? &c->controller() : nullptr;
}

}  // namespace ncgw::udt
