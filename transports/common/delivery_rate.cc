#include "transports/common/delivery_rate.h"

#include <algorithm>
#include <chrono>

namespace ncgw::transport {

double RateSample::rate() const {
  const double s = std::chrono::duration<double>(interval).count();
  return s > 0 ? static_cast<double>(delivered) / s : 0.0;
}

DeliverySnapshot DeliveryRateSampler::on_sent(TimePoint now, std::uint32_t in_flight) {
  if (in_flight == 0) first_sent_time_ = delivered_time_ = now;
  return {delivered_, lost_, delivered_time_, first_sent_time_, now, app_limited_until_ != 0};
}

void DeliveryRateSampler::on_acked(const DeliverySnapshot& s, TimePoint now) {
  ++delivered_;
  delivered_time_ = now;
  if (app_limited_until_ != 0 && delivered_ > app_limited_until_) app_limited_until_ = 0;
  if (have_ && s.delivered < newest_.delivered) return;  // an older transmission than the newest seen
  if (have_ && s.delivered == newest_.delivered && s.sent <= newest_.sent) return;
  have_ = true;
  newest_ = s;
  send_elapsed_ = s.sent - s.first_sent_time;
  ack_elapsed_ = now - s.delivered_time;
  first_sent_time_ = s.sent;
}

std::optional<RateSample> DeliveryRateSampler::finish(Duration min_interval) {
  if (!have_) return std::nullopt;
  have_ = false;
  RateSample r;
  r.delivered = delivered_ - newest_.delivered;
  r.lost = lost_ - newest_.lost;
  r.interval = std::max(send_elapsed_, ack_elapsed_);
  r.prior_delivered = newest_.delivered;
  r.app_limited = newest_.app_limited;
  r.valid = r.delivered > 0 && r.interval >= min_interval && r.interval > Duration::zero();
  return r;
}

void DeliveryRateSampler::mark_app_limited(std::uint32_t in_flight) {
  app_limited_until_ = std::max<std::uint64_t>(delivered_ + in_flight, 1);
}

}  // namespace ncgw::transport
