// Windowed running maximum (or minimum) of a sampled value over a sliding window of "time" units
// (round trips, or any monotonic counter), keeping the best, second-best and third-best samples of
// successive sub-windows (K. Nichols' algorithm, as BBR uses for its bandwidth filter). O(1) per
// sample, no allocation.
#pragma once
#include <array>
#include <cstdint>
#include <functional>

namespace ncgw::transport {

// Best value seen over the last `window` units; `Better` orders values (std::greater: a max filter).
template <class T, class Better = std::greater<T>>
class WindowedFilter {
 public:
  // `window`: how long (in units of the time key) a sample stays eligible.
  explicit WindowedFilter(std::uint64_t window) : window_(window) {}

  // Adds `value` observed at time key `t` (keys never decrease).
  void update(T value, std::uint64_t t) {
    const Sample s{value, t};
    if (!valid_ || better_(value, est_[0].value) || better_eq(value, est_[0].value) || t - est_[2].time > window_) {
      est_ = {s, s, s};
      valid_ = true;
      return;
    }
    if (better_eq(value, est_[1].value)) est_[2] = est_[1] = s;
    else if (better_eq(value, est_[2].value)) est_[2] = s;
    expire(s);
  }
  // The best value in the window (T{} before the first sample).
  T best() const { return valid_ ? est_[0].value : T{}; }
  // Forgets every sample.
  void reset() { valid_ = false; }
  bool valid() const { return valid_; }

 private:
  // One retained sample.
  struct Sample {
    T value{};
    std::uint64_t time = 0;
  };
  bool better_eq(const T& a, const T& b) const { return !better_(b, a); }
  // Ages out the best samples when they leave the window, promoting the next ones.
  void expire(const Sample& s) {
    if (s.time - est_[0].time > window_) {
      est_[0] = est_[1];
      est_[1] = est_[2];
      est_[2] = s;
      if (s.time - est_[0].time > window_) {
        est_[0] = est_[1];
        est_[1] = est_[2];
      }
      return;
    }
    if (est_[1].time == est_[0].time && s.time - est_[1].time > window_ / 4) {
      est_[2] = est_[1] = s;  // a quarter of the window passed without a second-best
      return;
    }
    if (est_[2].time == est_[1].time && s.time - est_[2].time > window_ / 2) est_[2] = s;
  }

  std::uint64_t window_;
  Better better_{};
  std::array<Sample, 3> est_{};
  bool valid_ = false;
};

}  // namespace ncgw::transport
