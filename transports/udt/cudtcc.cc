#include "transports/udt/cudtcc.h"

#include <cmath>

#include "transports/udt/seq.h"

namespace ncgw::udt {

void Cudtcc::init(std::int32_t snd_curr_seq, std::int32_t max_cwnd, std::int32_t mss, std::int64_t now_us,
                  std::uint64_t seed, int max_decreases, std::int32_t initial_window) {
  rng_ = transport::Rng(seed);
  max_decreases_ = max_decreases < 1 ? 1 : max_decreases;
  snd_curr_seq_ = snd_curr_seq;
  max_cwnd_ = max_cwnd;
  mss_ = mss;
  last_rc_us_ = now_us;
  slow_start_ = true;
  last_ack_ = snd_curr_seq;
  loss_ = false;
  last_dec_seq_ = seq::dec(last_ack_);
  last_dec_period_ = 1;
  avg_nak_num_ = nak_count_ = dec_count_ = 0;
  dec_random_ = 1;
  cwnd_ = initial_window > 0 ? initial_window : wire::kInitialCwnd;
  period_ = wire::kInitialPeriodUs;
}

void Cudtcc::leave_slow_start() {
  slow_start_ = false;
  if (rcv_rate_ > 0) {
    period_ = 1e6 / rcv_rate_;
  } else {
    period_ = (rtt_us_ + wire::kSynUs) / cwnd_;
  }
}

void Cudtcc::on_ack(std::int32_t ack, std::int64_t now_us) {
  if (now_us - last_rc_us_ < wire::kSynUs) return;
  last_rc_us_ = now_us;
  if (slow_start_) {
    cwnd_ += seq::len(last_ack_, ack);
    last_ack_ = ack;
    if (cwnd_ > max_cwnd_) leave_slow_start();
    if (slow_start_) return;
  } else {
    cwnd_ = rcv_rate_ / 1e6 * (rtt_us_ + wire::kSynUs) + wire::kInitialCwnd;
  }
  if (loss_) {
    loss_ = false;
    return;
  }
  std::int64_t b = static_cast<std::int64_t>(bandwidth_ - 1e6 / period_);
  if (period_ > last_dec_period_ && (bandwidth_ / 9) < b) b = bandwidth_ / 9;
  double inc = wire::kMinIncrease;
  if (b > 0) {
    inc = std::pow(10.0, std::ceil(std::log10(static_cast<double>(b) * mss_ * 8.0))) * wire::kIncreaseBeta / mss_;
    if (inc < wire::kMinIncrease) inc = wire::kMinIncrease;
  }
  period_ = (period_ * wire::kSynUs) / (period_ * inc + wire::kSynUs);
}

void Cudtcc::on_loss(std::int32_t first_loss) {
  if (slow_start_) {
    slow_start_ = false;
    if (rcv_rate_ > 0) {
      period_ = 1e6 / rcv_rate_;
      return;
    }
    period_ = cwnd_ / (rtt_us_ + wire::kSynUs);  // as the library computes it
  }
  loss_ = true;
  if (seq::cmp(first_loss, last_dec_seq_) > 0) {
    last_dec_period_ = period_;
    period_ = std::ceil(period_ * wire::kDecreaseFactor);
    avg_nak_num_ = static_cast<int>(std::ceil(avg_nak_num_ * 0.875 + nak_count_ * 0.125));
    nak_count_ = 1;
    dec_count_ = 1;
    last_dec_seq_ = snd_curr_seq_;
    dec_random_ = static_cast<int>(std::ceil(avg_nak_num_ * rng_.uniform()));
    if (dec_random_ < 1) dec_random_ = 1;
  } else if ((dec_count_++ < max_decreases_) && (0 == (++nak_count_ % dec_random_))) {
    period_ = std::ceil(period_ * wire::kDecreaseFactor);
    last_dec_seq_ = snd_curr_seq_;
  }
}

void Cudtcc::on_timeout() {
  if (slow_start_ && rate_known_) leave_slow_start();
}

void Cudtcc::on_congestion_warning() {
  // core.cpp case 4: m_ullInterval = ceil(m_ullInterval * 1.125), rounded in CPU ticks, not us
  period_ *= wire::kDecreaseFactor;
  last_dec_seq_ = snd_curr_seq_;
}

}  // namespace ncgw::udt
