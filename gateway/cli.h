// The ncgw command line: run, check-config, status, --version.
#pragma once

namespace ncgw::gateway {

// Exit statuses of the ncgw binary.
inline constexpr int kExitOk = 0;
inline constexpr int kExitRuntime = 1;  // the system refused something (TUN, socket, ...)
inline constexpr int kExitConfig = 2;   // bad arguments or configuration; nothing was touched

// Parses argv and runs the chosen command; returns the process exit status.
int run_cli(int argc, char** argv);

}  // namespace ncgw::gateway
