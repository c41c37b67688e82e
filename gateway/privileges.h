// Running unprivileged after setup: once the TUN, the UDP ports, the routes and the control socket
// exist, the daemon becomes an ordinary user that keeps only the capabilities it still needs
// (CAP_NET_ADMIN to remove routes, rules and a persistent TUN's state on exit;
// CAP_NET_BIND_SERVICE so nothing it holds depends on the port number). docs/security.md.
#pragma once
#include <sys/types.h>

#include <optional>
#include <string>

namespace ncgw::gateway {

// The account the daemon switches to.
struct RunAs {
  std::string name;
  uid_t uid = 0;
  gid_t gid = 0;   // the account's primary group
};

// The account `user` (gateway.user) names: "auto" is `ncgw` if that user exists, else `nobody`;
// "root" or a process not started as root means no switch (nullopt). Throws std::runtime_error if
// a named user does not exist.
std::optional<RunAs> resolve_run_as(const std::string& user);

// The group the control socket belongs to: `ncgw` when that group exists.
std::optional<gid_t> control_group();

// Switches the process (single-threaded) to `who` with only the kept capabilities in its
// permitted and effective sets, none inheritable, the rest dropped from the bounding set, and
// no_new_privs set; then checks that root cannot be regained. Throws std::runtime_error on any
// failure: a daemon that asked to drop privileges never runs on with them.
void drop_privileges(const RunAs& who);

}  // namespace ncgw::gateway
