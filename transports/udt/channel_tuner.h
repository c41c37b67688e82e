// Paper 001's channel count for parallel UDT: OPCN, the regression of the best channel count on
// the RTT (section III: OPCN = 2.0038 ln(RTT in ms) + 4.3746, Table III), and the ACT tuner of its
// Figure 3 / Pseudocode 1 that moves the count with each RTT report. Pure: RTTs come in as numbers.
#pragma once
#include <array>
#include <cstddef>

namespace ncgw::udt {

// OPCN for an RTT in milliseconds, rounded, within [min_channels, max_channels].
unsigned opcn_channels(double rtt_ms, unsigned min_channels, unsigned max_channels);

// The ACT tuner's parameters. The paper names them (alpha, beta, thre) without values; these are ours.
struct ActTunerSettings {
  double alpha_share = 0.1;     // alpha: an RTT change below alpha_share x RTTmin (at least
  double alpha_min_ms = 1.0;    //   alpha_min_ms) is "the same congestion" (confix counts it)
  unsigned beta = 5;            // beta: after more than beta such reports RTTmin is re-extracted
  unsigned thre = 2;            // thre: the count moves at most thre around OPCN(RTTmin)
  unsigned min_channels = 1;
  unsigned max_channels = 64;
};

// The tuner's state: RTTmin, RTTpre, confix, the OPCN base and the current count.
class ActTuner {
 public:
  explicit ActTuner(const ActTunerSettings& s = {});
  // One RTT report (ms); returns the channel count to run.
  unsigned on_rtt(double rtt_ms);
  unsigned channels() const { return current_; }
  // OPCN(RTTmin): the count the tuner moves around.
  unsigned base() const { return base_; }
  double rtt_min() const { return rtt_min_; }
  unsigned confix() const { return confix_; }

  static constexpr std::size_t kHistory = 8;  // RTTs kept for re-extracting RTTmin (RTT_{t-i}..RTT_t)

 private:
  // RTTmin = rtt, the base and the count from OPCN(rtt), confix = 0.
  void reset_to(double rtt_ms);
  // One step toward more channels if RTT fell, fewer if it rose, within base +- thre.
  void step(double rtt_ms);

  ActTunerSettings s_;
  double rtt_min_ = 0, rtt_pre_ = 0;
  bool started_ = false;
  unsigned confix_ = 0, base_ = 1, current_ = 1;
  std::array<double, kHistory> history_{};
  std::size_t history_size_ = 0, history_next_ = 0;
};

}  // namespace ncgw::udt
