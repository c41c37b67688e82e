// TCP/NC's view of the shared congestion-controller interface (transports/common): the names the
// sender uses, and the factory that builds the controller a sender's settings select.
#pragma once
#include <memory>

#include "transports/common/congestion_controller.h"
#include "transports/common/delivery_rate.h"

namespace ncgw::tcpnc {

using transport::AckEvent;
using transport::CcAlgorithm;
using transport::CongestionController;
using transport::ControllerSettings;
using transport::DeliveryRateSampler;
using transport::DeliverySnapshot;
using transport::RateSample;

// Builds the controller `s.algorithm` names (allocates once, at sender construction): the
// model-based one (transports/common/bbr.h) or NewReno / CUBIC (window_controller.h).
std::unique_ptr<CongestionController> make_controller(const ControllerSettings& s);

}  // namespace ncgw::tcpnc
