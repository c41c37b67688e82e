// A token bucket over core time: `rate` tokens a second, at most `burst` saved up.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>

#include "transports/common/time.h"

namespace ncgw::crypto {

class TokenBucket {
 public:
  TokenBucket(std::uint32_t rate, std::uint32_t burst) : rate_(rate), burst_(burst), tokens_(burst) {}

  // Takes one token if there is one.
  bool take(transport::TimePoint now) {
    if (last_) {
      const double seconds = std::chrono::duration<double>(now - *last_).count();
      tokens_ = std::min<double>(burst_, tokens_ + std::max(0.0, seconds) * rate_);
    }
    last_ = now;
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
  }

 private:
  double rate_, burst_, tokens_;
  std::optional<transport::TimePoint> last_;
};

}  // namespace ncgw::crypto
