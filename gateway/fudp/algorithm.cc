#include "gateway/fudp/algorithm.h"

#include <algorithm>
#include <cmath>

namespace ncgw::fudp {

TcpPrediction predict(const TcpPrediction& previous, double sample, double alpha, double beta) {
  if (!previous.primed) return {sample, 0.0, true};
  TcpPrediction next;
  next.w = (1 - alpha) * previous.w + alpha * sample;
  next.d = (1 - beta) * previous.d + beta * std::fabs(sample - previous.w);
  next.primed = true;
  return next;
}

FairnessBand fairness_band(const TcpPrediction& p, std::size_t tcp_flows) {
  const double n = static_cast<double>(std::max<std::size_t>(tcp_flows, 1));
  return {(p.w - p.d) / n, (p.w + p.d) / n};
}

bool in_band(double udp_average, const FairnessBand& band) {
  return udp_average >= band.low && udp_average <= band.high;
}

double available_bandwidth(const TcpPrediction& p, std::span<const double> udp_bandwidths) {
  double bw = p.w;
  for (double b : udp_bandwidths) bw += b;
  return bw;
}

void max_min(double bw, std::span<const Demand> flows, std::span<double> out, std::span<std::uint32_t> order) {
  const std::size_t n = flows.size();
  for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
  auto demand = [&flows](std::uint32_t i) { return flows[i].udp ? flows[i].demand : HUGE_VAL; };
  // std::sort (not stable_sort, which may allocate a buffer); ties keep input order.
  std::sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), [&](std::uint32_t a, std::uint32_t b) {
    return demand(a) < demand(b) || (demand(a) == demand(b) && a < b);
  });
  std::size_t y = n;
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t f = order[k];
    const double share = std::max(0.0, bw) / static_cast<double>(y);
    const double b = std::min(demand(f), share);
    out[f] = b;
    bw -= b;
    --y;
  }
}

}  // namespace ncgw::fudp
