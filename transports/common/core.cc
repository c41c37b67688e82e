#include "transports/common/core.h"

namespace ncgw::transport {

const char* to_string(SendResult r) {
  switch (r) {
    case SendResult::accepted: return "accepted";
    case SendResult::buffer_full: return "buffer_full";
    case SendResult::too_big: return "too_big";
    case SendResult::not_connected: return "not_connected";
  }
  return "unknown";
}

}  // namespace ncgw::transport
