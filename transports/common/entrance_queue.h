// The entrance-queue policy the reliable transports share: how much of the end hosts' traffic a
// tunnel holds before it refuses packets (docs/tcpnc-congestion.md, docs/udt-wire.md).
#pragma once
#include <chrono>
#include <cstddef>

#include "transports/common/time.h"

namespace ncgw::transport {

// Packets an entrance queue always takes: one 64 KB TSO/GSO burst of an end host (45 segments).
inline constexpr std::size_t kEntranceBurstPackets = 48;

// How long traffic may wait at the entrance: half the path's min RTT plus 10 ms, enough for CUBIC
// end hosts to keep the tunnel busy through their back-off while their RTT stays near the path's.
inline Duration entrance_wait_budget(Duration min_rtt) { return min_rtt / 2 + std::chrono::milliseconds(10); }

}  // namespace ncgw::transport
