// A token bucket that holds one UDP flow to its allocated rate at the tunnel entrance.
// Sans-I/O: time is an argument.
#pragma once
#include <algorithm>
#include <cstdint>

#include "transports/common/time.h"

namespace ncgw::fudp {

// Rate in bytes per second, depth in bytes; a packet passes when the bucket holds its size.
class TokenBucket {
 public:
  // Sets a new rate (bytes/s) and depth (bytes); the tokens already held are kept up to the depth.
  void configure(double rate_Bps, double depth_bytes, transport::TimePoint now) {
    refill(now);
    rate_ = rate_Bps;
    depth_ = depth_bytes;
    tokens_ = std::min(tokens_, depth_);
  }
  // Fills the bucket to its depth (a flow that just became shaped starts with a full burst).
  void fill() { tokens_ = depth_; }
  // True and takes the tokens if a packet of `bytes` may pass at `now`.
  bool admit(std::uint32_t bytes, transport::TimePoint now) {
    refill(now);
    if (tokens_ < bytes) return false;
    tokens_ -= bytes;
    return true;
  }
  double rate() const { return rate_; }    // bytes per second
  double depth() const { return depth_; }  // bytes

 private:
  // Adds the tokens earned since the last call, up to the depth.
  void refill(transport::TimePoint now) {
    if (now > last_) {
      const double seconds = std::chrono::duration<double>(now - last_).count();
      tokens_ = std::min(depth_, tokens_ + seconds * rate_);
    }
    last_ = std::max(last_, now);
  }

  double rate_ = 0, depth_ = 0, tokens_ = 0;
  transport::TimePoint last_{};
};

}  // namespace ncgw::fudp
