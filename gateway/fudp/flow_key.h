// FUDP's names for the inner-flow key (transports/common/flow_key.h): FUDP accounts flows by the
// same 5-tuple that parallel UDT hashes onto its channels.
#pragma once
#include "transports/common/flow_key.h"

namespace ncgw::fudp {

using transport::FlowClass;
using transport::FlowKey;
using transport::flow_class;
using transport::hash;
using transport::parse_flow;
using transport::to_string;

}  // namespace ncgw::fudp
