// JSON form of linkem's counters.
#include "netns-scenarios/linkem/stats_json.h"

namespace linkem {

nlohmann::json counters_json(const Counters& c) {
  return {{"frames_in", c.frames_in},         {"bytes_in", c.bytes_in},
          {"frames_out", c.frames_out},       {"bytes_out", c.bytes_out},
          {"dropped_loss", c.dropped_loss},   {"dropped_queue", c.dropped_queue},
          {"dropped_tx", c.dropped_tx},       {"duplicated", c.duplicated},
          {"reordered", c.reordered},         {"queue_packets", c.queue_packets},
          {"queue_bytes", c.queue_bytes},     {"queue_max_packets", c.queue_max_packets}};
}

}  // namespace linkem
