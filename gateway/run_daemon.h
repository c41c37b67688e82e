// Runs a gateway until SIGINT or SIGTERM, then shuts it down cleanly.
#pragma once
#include "config/config.h"

namespace ncgw::gateway {

// Builds the gateway, serves until a stop signal, stops it; returns the exit status.
int run_daemon(const config::GatewayConfig& cfg);

}  // namespace ncgw::gateway
