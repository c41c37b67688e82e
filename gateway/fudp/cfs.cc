#include "gateway/fudp/cfs.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace ncgw::fudp {

using transport::Duration;
using transport::TimePoint;

namespace {

// Smallest bucket depth: three full-size packets (a shaped flow must pass at least one).
constexpr double kMinDepthBytes = 4500;
// Bucket depth in time at the allocated rate.
constexpr double kDepthSeconds = 0.05;
// Headroom of a flow whose allocation is its own demand (it is not held below what it sends).
constexpr double kDemandHeadroom = 1.1;
// A TCP flow whose packets average below this in a period carries no bulk data (pure ACKs of a
// download the other way, an idle control connection): it is not elastic demand.
constexpr std::uint64_t kThinTcpBytes = 256;

double seconds(Duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

bool Cfs::bulk_tcp(const Flow& f) {
  return f.cls == FlowClass::tcp && f.period_packets > 0 && f.period_bytes >= kThinTcpBytes * f.period_packets;
}

Cfs::Cfs(const Settings& settings, TimePoint now)
    : settings_(settings),
      period_(std::chrono::milliseconds(std::max<std::uint32_t>(settings.period_ms, 1))),
      period_start_(now),
      table_(settings.flow_table_size),
      demands_(table_.capacity()),
      shares_(table_.capacity()),
      order_(table_.capacity()) {
  members_.reserve(table_.capacity());
}

bool Cfs::on_packet(std::span<const std::uint8_t> packet, TimePoint now) {
  const auto size = static_cast<std::uint32_t>(packet.size());
  ++counters_.packets;
  counters_.bytes += size;
  const auto key = parse_flow(packet);
  if (!key) {
    ++counters_.unparsed;
    return true;
  }
  Flow& f = table_.touch(*key, now);
  ++f.packets;
  f.bytes += size;
  ++f.period_packets;
  f.period_bytes += size;
  const bool limited = f.cls == FlowClass::udp && settings_.shape && std::isfinite(f.allocation_Bps);
  if (limited && !f.bucket.admit(size, now)) {
    ++f.dropped_packets;
    f.dropped_bytes += size;
    ++counters_.dropped_packets;
    counters_.dropped_bytes += size;
    return false;
  }
  f.period_passed_bytes += size;
  return true;
}

void Cfs::measure(TimePoint now) {
  report_.seconds = seconds(now - period_start_);
  report_.tcp_flows = report_.udp_flows = report_.other_flows = report_.thin_tcp_flows = 0;
  report_.tcp_sample_Bps = 0;
  double udp_passed = 0, bytes = 0, packets = 0;
  const Duration floor = period_ / 4;  // a flow seen for a moment is not given a huge rate
  table_.for_each([&](Flow& f) {
    const Duration age = now - std::max(f.first_seen, period_start_);
    const double s = std::max(seconds(std::max(age, floor)), 1e-6);
    f.rate_Bps = static_cast<double>(f.period_bytes) / s;
    f.passed_Bps = static_cast<double>(f.period_passed_bytes) / s;
    bytes += static_cast<double>(f.period_bytes);
    packets += static_cast<double>(f.period_packets);
    if (f.period_packets == 0) return;
    if (bulk_tcp(f)) {
      ++report_.tcp_flows;
      report_.tcp_sample_Bps += f.rate_Bps;
    } else if (f.cls == FlowClass::udp) {
      ++report_.udp_flows;
      udp_passed += f.passed_Bps;
    } else if (f.cls == FlowClass::tcp) {
      ++report_.thin_tcp_flows;
    } else {
      ++report_.other_flows;
    }
  });
  report_.udp_average_Bps = report_.udp_flows ? udp_passed / static_cast<double>(report_.udp_flows) : 0;
  mean_packet_bytes_ = packets > 0 ? bytes / packets : 0;
}

void Cfs::on_period(TimePoint now, std::optional<double> tunnel_Bps) {
  table_.expire(now, std::chrono::milliseconds(settings_.idle_timeout_ms));
  measure(now);
  ++report_.periods;
  report_.prediction = predict(report_.prediction, report_.tcp_sample_Bps, settings_.alpha, settings_.beta);
  report_.band = fairness_band(report_.prediction, report_.tcp_flows);
  report_.tunnel_estimate = tunnel_Bps.has_value() && *tunnel_Bps > 0;
  report_.reallocated = false;
  double other = 0, udp_sum = 0;
  table_.for_each([&](const Flow& f) {
    if (f.period_packets == 0) return;
    if (f.cls == FlowClass::other || (f.cls == FlowClass::tcp && !bulk_tcp(f))) other += f.rate_Bps;
    if (f.cls == FlowClass::udp) udp_sum += f.passed_Bps;
  });
  // Eq. 3 (UDP: what passed the buckets), capped by the tunnel's own estimate when it has one
  // (a greedy flow's entrance rate is not what crossed). Without TCP flows eq. 3 would only
  // repeat the last allocations, so the estimate alone is used.
  const double eq3 = report_.prediction.w + udp_sum;
  double bw = eq3;
  if (report_.tunnel_estimate) bw = report_.tcp_flows ? std::min(eq3, *tunnel_Bps) : *tunnel_Bps;
  report_.available_Bps = std::max(0.0, bw - other);
  if (report_.udp_flows == 0) {
    // nothing to allocate
  } else if (report_.tcp_flows == 0 && !report_.tunnel_estimate) {
    lift_limits();
  } else if (report_.tcp_flows == 0 || !in_band(report_.udp_average_Bps, report_.band)) {
    reallocate(report_.available_Bps, now);
  }
  start_period(now);
}

void Cfs::reallocate(double bw, TimePoint now) {
  members_.clear();
  table_.for_each([&](Flow& f) {
    if (f.period_packets > 0 && (f.cls == FlowClass::udp || bulk_tcp(f))) members_.push_back(&f);
  });
  const std::size_t n = members_.size();
  for (std::size_t i = 0; i < n; ++i) demands_[i] = {members_[i]->rate_Bps, members_[i]->cls == FlowClass::udp};
  max_min(bw, {demands_.data(), n}, {shares_.data(), n}, {order_.data(), n});
  for (std::size_t i = 0; i < n; ++i) {
    if (members_[i]->cls == FlowClass::udp) allocate(*members_[i], shares_[i], now);
  }
  report_.reallocated = true;
  ++report_.reallocations;
}

void Cfs::allocate(Flow& f, double allocation, TimePoint now) {
  const bool was_unlimited = !std::isfinite(f.allocation_Bps);
  f.allocation_Bps = allocation;
  const double rate = allocation >= f.rate_Bps ? allocation * kDemandHeadroom : allocation;
  f.bucket.configure(rate, std::max(kMinDepthBytes, rate * kDepthSeconds), now);
  if (was_unlimited) f.bucket.fill();
}

void Cfs::lift_limits() {
  table_.for_each([](Flow& f) {
    if (f.cls == FlowClass::udp) f.allocation_Bps = kUnlimited;
  });
}

void Cfs::start_period(TimePoint now) {
  period_start_ = now;
  table_.for_each([](Flow& f) {
    f.period_bytes = f.period_passed_bytes = f.period_packets = 0;
  });
}

}  // namespace ncgw::fudp
