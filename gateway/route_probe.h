// What the kernel's routing says about the path toward an underlay endpoint, read through a
// connected UDP socket (connect() sends nothing): the source address it picks, and the path MTU it
// holds for the route (IP_MTU / IPV6_MTU: the route's mtu metric, a learned path MTU, or the
// outgoing device's MTU; the counterpart of the BSD route's rmx_mtu that paper 000 reads).
#pragma once
#include <cstdint>
#include <optional>

#include "gateway/underlay_endpoint.h"

namespace ncgw::gateway {

// The source address (with `port`) the kernel picks toward `peer`; nothing if no route leads there.
std::optional<UnderlayEndpoint> routed_source(const UnderlayEndpoint& peer, std::uint16_t port);

// The path MTU the kernel holds toward `peer`; nothing if no route leads there.
std::optional<std::uint32_t> route_mtu(const UnderlayEndpoint& peer);

}  // namespace ncgw::gateway
