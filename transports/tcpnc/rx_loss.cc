#include "transports/tcpnc/rx_loss.h"

#include <algorithm>

namespace ncgw::tcpnc {

void RxLossMeter::clear() {
  bits_.fill(0);
  first_ = largest_ = count_ = 0;
  any_ = false;
}

void RxLossMeter::on_received(std::uint64_t tx) {
  if (!any_) {
    any_ = true;
    first_ = largest_ = tx;
  } else if (tx > largest_) {
    if (tx - largest_ >= kRxLossWindow) {  // a jump past the whole window: nothing in it survives
      bits_.fill(0);
      count_ = 0;
    } else {
      for (std::uint64_t t = largest_ + 1; t <= tx; ++t)  // slot of t held t - window: leaves it
        if (test(t)) { reset(t); --count_; }
    }
    largest_ = tx;
  } else if (largest_ - tx >= kRxLossWindow) {
    return;  // older than the window
  }
  first_ = std::min(first_, tx);
  if (test(tx)) return;
  set(tx);
  ++count_;
}

std::uint64_t RxLossMeter::span() const {
  if (!any_) return 0;
  const std::uint64_t start = largest_ >= kRxLossWindow ? std::max(first_, largest_ - kRxLossWindow + 1) : first_;
  return largest_ - start + 1;
}

double RxLossMeter::loss_rate() const {
  const std::uint64_t s = span();
  return s == 0 ? 0.0 : 1.0 - static_cast<double>(count_) / static_cast<double>(s);
}

}  // namespace ncgw::tcpnc
