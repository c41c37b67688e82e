#include "transports/udt/paudt_cc.h"

#include <algorithm>

#include "transports/udt/seq.h"
#include "transports/udt/wire.h"

namespace ncgw::udt {

void PaudtCc::init(std::int32_t snd_curr_seq, std::int32_t max_cwnd, std::int32_t initial_window) {
  initial_ = std::max(2, initial_window);
  max_cwnd_ = std::max<double>(initial_, max_cwnd);
  cwnd_ = ssthresh_ = std::min(initial_, max_cwnd_);
  last_ack_ = snd_curr_seq_ = snd_curr_seq;
  recovery_seq_ = snd_curr_seq;
  naks_ = 0;
  decreases_ = 0;
}

void PaudtCc::on_ack(std::int32_t ack) {
  // `ack` is the next sequence number the receiver expects: everything before it arrived.
  // Packets sent before the last decrease (the window being recovered) do not grow the window, as
  // in TCP's fast recovery.
  const std::int32_t last = seq::dec(ack);
  if (seq::cmp(last, last_ack_) <= 0) return;
  const std::int32_t from = seq::max(last_ack_, recovery_seq_);
  const std::int32_t newly = seq::cmp(last, from) > 0 ? seq::off(from, last) : 0;
  last_ack_ = last;
  for (std::int32_t i = 0; i < newly && cwnd_ < max_cwnd_; ++i)
    cwnd_ += slow_start() ? 1.0 : 1.0 / cwnd_;
  cwnd_ = std::min(cwnd_, max_cwnd_);
}

void PaudtCc::on_loss(std::int32_t first_loss) {
  if (seq::cmp(first_loss, recovery_seq_) <= 0) return;  // sent before the last decrease
  if (++naks_ >= wire::kPaudtNaksPerDecrease) decrease();
}

void PaudtCc::on_timeout() {
  ssthresh_ = std::max(2.0, cwnd_ / 2);
  cwnd_ = std::min(initial_, ssthresh_);
  recovery_seq_ = snd_curr_seq_;
  naks_ = 0;
  ++decreases_;
}

void PaudtCc::decrease() {
  ssthresh_ = std::max(2.0, cwnd_ / 2);
  cwnd_ = ssthresh_;
  recovery_seq_ = snd_curr_seq_;
  naks_ = 0;
  ++decreases_;
}

double PaudtCc::period_us() const { return static_cast<double>(rtt_us_) / std::max(1.0, cwnd_); }

}  // namespace ncgw::udt
