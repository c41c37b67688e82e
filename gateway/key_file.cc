#include "gateway/key_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "crypto/keys.h"

namespace ncgw::gateway {

namespace {

// The whole (short) file behind `fd`.
std::string read_all(int fd) {
  std::string text;
  char buf[256];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > 4096) break;
  }
  crypto::wipe({reinterpret_cast<std::uint8_t*>(buf), sizeof buf});
  return text;
}

}  // namespace

crypto::Key read_key_file(const std::string& path, bool secret) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("key file " + path + ": " + std::strerror(errno));
  struct stat st{};
  ::fstat(fd, &st);
  if (secret && (st.st_mode & 077) != 0) {
    ::close(fd);
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    throw std::runtime_error("key file " + path + " is accessible by group or others (mode " + mode +
                             "); refusing it: chmod 600 " + path);
  }
  std::string text = read_all(fd);
  ::close(fd);
  const auto key = crypto::from_base64(text);
  crypto::wipe({reinterpret_cast<std::uint8_t*>(text.data()), text.size()});
  if (!key) throw std::runtime_error("key file " + path + ": expected one base64 key of 44 characters (ncgw genkey)");
  return *key;
}

crypto::Key parse_key(const std::string& text, const std::string& what) {
  const auto key = crypto::from_base64(text);
  if (!key) throw std::runtime_error(what + ": not a base64 X25519 key: " + text);
  return *key;
}

}  // namespace ncgw::gateway
