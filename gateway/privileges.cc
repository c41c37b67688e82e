#include "gateway/privileges.h"

#include <grp.h>
#include <pwd.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace ncgw::gateway {

namespace {

// What the daemon still needs after setup (see the header).
constexpr std::array<cap_value_t, 2> kKeptCapabilities{CAP_NET_ADMIN, CAP_NET_BIND_SERVICE};

[[noreturn]] void fail(const std::string& what) {
  throw std::runtime_error("dropping privileges: " + what + ": " + std::strerror(errno));
}

bool kept(cap_value_t c) {
  for (cap_value_t k : kKeptCapabilities) {
    if (k == c) return true;
  }
  return false;
}

std::optional<RunAs> lookup(const std::string& name) {
  const passwd* pw = ::getpwnam(name.c_str());
  if (!pw) return std::nullopt;
  return RunAs{name, pw->pw_uid, pw->pw_gid};
}

// Removes every capability but the kept ones from the bounding set (needs CAP_SETPCAP, so first).
void shrink_bounding_set() {
  const int last = static_cast<int>(cap_max_bits()) - 1;
  for (cap_value_t c = 0; c <= last; ++c) {
    if (!kept(c) && cap_drop_bound(c) != 0 && errno != EINVAL) fail("cap_drop_bound");
  }
}

// Permitted and effective: exactly the kept capabilities; inheritable and ambient: none.
void keep_only_needed_capabilities() {
  cap_t caps = cap_init();
  if (!caps) fail("cap_init");
  const bool ok = cap_set_flag(caps, CAP_PERMITTED, kKeptCapabilities.size(), kKeptCapabilities.data(),
                               CAP_SET) == 0 &&
                  cap_set_flag(caps, CAP_EFFECTIVE, kKeptCapabilities.size(), kKeptCapabilities.data(),
                               CAP_SET) == 0 &&
                  cap_set_proc(caps) == 0;
  cap_free(caps);
  if (!ok) fail("cap_set_proc");
  if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) fail("clearing ambient");
}

std::size_t thread_count() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) ++n;
  return n;
}

}  // namespace

std::optional<RunAs> resolve_run_as(const std::string& user) {
  if (::geteuid() != 0 || user == "root") return std::nullopt;
  if (user == "auto") {
    if (auto ncgw = lookup("ncgw")) return ncgw;
    if (auto nobody = lookup("nobody")) return nobody;
    throw std::runtime_error("gateway.user auto: neither user 'ncgw' nor 'nobody' exists; create one "
                             "(useradd --system ncgw) or set gateway.user");
  }
  if (auto named = lookup(user)) return named;
  throw std::runtime_error("gateway.user " + user + ": no such user");
}

std::optional<gid_t> control_group() {
  const group* gr = ::getgrnam("ncgw");
  if (!gr) return std::nullopt;
  return gr->gr_gid;
}

void drop_privileges(const RunAs& who) {
  // capset(2) changes the calling thread only: another thread would keep root's capabilities.
  if (thread_count() != 1) {
    errno = EBUSY;
    fail("the process has more than one thread");
  }
  shrink_bounding_set();
  if (::prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0) fail("PR_SET_KEEPCAPS");
  if (::setgroups(0, nullptr) != 0) fail("setgroups");
  if (::setresgid(who.gid, who.gid, who.gid) != 0) fail("setresgid " + std::to_string(who.gid));
  if (::setresuid(who.uid, who.uid, who.uid) != 0) fail("setresuid " + std::to_string(who.uid));
  if (::prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) != 0) fail("PR_SET_KEEPCAPS");
  keep_only_needed_capabilities();
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail("PR_SET_NO_NEW_PRIVS");
  if (::setuid(0) == 0 || ::geteuid() == 0) {
    errno = EPERM;
    fail("root could be regained");
  }
}

}  // namespace ncgw::gateway
