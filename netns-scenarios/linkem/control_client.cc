// Client side of linkem's control socket.
#include "netns-scenarios/linkem/control_client.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace linkem {

std::string control_request(const std::string& path, const std::string& command) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un sa{};
  sa.sun_family = AF_UNIX;
  std::strncpy(sa.sun_path, path.c_str(), sizeof sa.sun_path - 1);
  if (fd < 0 || connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
    std::string e = std::strerror(errno);
    if (fd >= 0) close(fd);
    throw std::runtime_error("cannot reach " + path + ": " + e);
  }
  std::string line = command + "\n";
  if (write(fd, line.data(), line.size()) < 0) {
    close(fd);
    throw std::runtime_error("write to " + path + " failed");
  }
  std::string reply;
  char buf[4096];
  for (ssize_t r; (r = read(fd, buf, sizeof buf)) > 0;) reply.append(buf, static_cast<std::size_t>(r));
  close(fd);
  return reply;
}

}  // namespace linkem
