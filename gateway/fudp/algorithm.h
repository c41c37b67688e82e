// The FUDP algorithm of paper 003 section 4.2 as pure functions: the EWMA prediction of the TCP
// aggregate (eq. 1) and its deviation (eq. 2), the fairness band of section 4.2.2, the available
// bandwidth of eq. 3, and the max-min allocation of Algorithm 1. Rates in bytes per second.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

namespace ncgw::fudp {

// W_k and D_k of one common flow set; `primed` once the first sample arrived.
struct TcpPrediction {
  double w = 0;  // predicted total TCP bandwidth W_k(f_T)
  double d = 0;  // deviation D_k(f_T)
  bool primed = false;
};

// Eq. 1 and 2: the next prediction from the previous one and this period's TCP total `sample`.
// The first sample gives W = sample, D = 0 (the paper's W_0 = W).
TcpPrediction predict(const TcpPrediction& previous, double sample, double alpha, double beta);

// The fairness band [W_ad, W_au] of the average TCP flow (section 4.2.2).
struct FairnessBand {
  double low = 0;   // W_ad(f_T) = (W - D) / n
  double high = 0;  // W_au(f_T) = (W + D) / n
};

// The band for `tcp_flows` (> 0) TCP flows.
FairnessBand fairness_band(const TcpPrediction& p, std::size_t tcp_flows);

// True if the average UDP bandwidth lies in the band (both ends included).
bool in_band(double udp_average, const FairnessBand& band);

// Eq. 3: BW = W_{k+1}(f_T) + sum of the UDP flows' distributed bandwidths.
double available_bandwidth(const TcpPrediction& p, std::span<const double> udp_bandwidths);

// A flow's demand for Algorithm 1; TCP flows are elastic (they take what is left), so their
// demand is infinite and they sort last.
struct Demand {
  double demand = 0;
  bool udp = false;
};

// Algorithm 1: max-min shares of `bw` among `flows` (ascending demand, each
// min(B_d, BW / y), then BW -= B_f, y -= 1). Writes one share per flow into `out`; `order` is
// scratch of the same size (no allocation here).
void max_min(double bw, std::span<const Demand> flows, std::span<double> out, std::span<std::uint32_t> order);

}  // namespace ncgw::fudp
