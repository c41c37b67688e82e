// Client side of linkem's control socket (the `linkem ctl` subcommand).
#pragma once
#include <string>

namespace linkem {

// Sends one command line to the control socket at `path` and returns the reply; throws
// std::runtime_error when the socket cannot be reached.
std::string control_request(const std::string& path, const std::string& command);

}  // namespace linkem
