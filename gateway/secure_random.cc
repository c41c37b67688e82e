#include "gateway/secure_random.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace ncgw::gateway {

void secure_random(std::span<std::uint8_t> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = getrandom(out.data() + done, out.size() - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(std::string("getrandom failed: ") + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace ncgw::gateway
