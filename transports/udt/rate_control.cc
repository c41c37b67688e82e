#include "transports/udt/rate_control.h"

namespace ncgw::udt {

void RateControl::init(CcKind kind, std::int32_t snd_curr_seq, std::int32_t max_cwnd, std::int32_t mss,
                       std::int32_t initial_window, std::int64_t now_us, std::uint64_t seed, int max_decreases) {
  if (kind == CcKind::paudt) {
    PaudtCc p;
    p.init(snd_curr_seq, max_cwnd, initial_window);
    cc_ = p;
    return;
  }
  Cudtcc c;
  c.init(snd_curr_seq, max_cwnd, mss, now_us, seed, max_decreases, initial_window);
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

void RateControl::on_ack(std::int32_t ack, std::int64_t now_us) {
  if (auto* c = std::get_if<Cudtcc>(&cc_)) c->on_ack(ack, now_us);
  else std::get<PaudtCc>(cc_).on_ack(ack);
}

void RateControl::on_loss(std::int32_t first_loss) {
  std::visit([&](auto& c) { c.on_loss(first_loss); }, cc_);
}

void RateControl::on_timeout() {
  std::visit([](auto& c) { c.on_timeout(); }, cc_);
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

}  // namespace ncgw::udt
