// The UDT multiplexer's name for a UDP peer: the shared endpoint value type, so the sans-I/O
// multiplexer tells connections apart without touching sockets.
#pragma once
#include "transports/common/ip_address.h"

namespace ncgw::udt {

using PeerAddress = transport::IpEndpoint;
using PeerAddressHash = transport::IpEndpointHash;

}  // namespace ncgw::udt
