// Log lines about a secured peer's handshakes, from its counters (the secure layer itself does not
// log: it is sans-I/O). Called every few seconds by the gateway.
#pragma once
#include <string>

#include "crypto/session_counters.h"

namespace ncgw::gateway {

// Logs (warning) the handshake failures counted since `last` and why they usually happen, and
// (info) a handshake flood answered with cookies; then sets `last` to `now`.
void log_security_events(const std::string& peer, const crypto::SessionCounters& now, crypto::SessionCounters& last,
                         bool has_session);

}  // namespace ncgw::gateway
