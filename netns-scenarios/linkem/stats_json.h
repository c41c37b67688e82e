// JSON form of linkem's settings and counters (for the control socket, stats file and exit).
#pragma once
#include <nlohmann/json.hpp>

#include "netns-scenarios/linkem/counters.h"
#include "netns-scenarios/linkem/settings.h"

namespace linkem {

// Counters as a JSON object (keys as in counters.h).
nlohmann::json counters_json(const Counters& c);

}  // namespace linkem
