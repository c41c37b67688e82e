#include "gateway/handoff.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace ncgw::gateway {

HandoffChannel::HandoffChannel(std::size_t slot_bytes, std::size_t slots)
    : slot_bytes_(slot_bytes), bytes_(slot_bytes * slots), headers_(slots), filled_(slots), free_(slots) {
  for (std::size_t i = 0; i < slots; ++i) free_.push(static_cast<std::uint32_t>(i));
}

bool HandoffChannel::push(std::size_t peer, std::span<const std::uint8_t> packet) {
  if (packet.size() > slot_bytes_) return false;
  std::uint32_t slot = 0;
  if (!free_.pop(slot)) return false;
  std::memcpy(bytes_.data() + slot * slot_bytes_, packet.data(), packet.size());
  headers_[slot] = {static_cast<std::uint32_t>(peer), static_cast<std::uint32_t>(packet.size())};
  filled_.push(slot);   // cannot fail: no more slots exist than the queue holds
  return true;
}

HandoffMesh::HandoffMesh(std::size_t workers, std::size_t slot_bytes) : workers_(workers) {
  channels_.resize(workers * workers);
  for (std::size_t from = 0; from < workers; ++from) {
    for (std::size_t to = 0; to < workers; ++to) {
      if (from != to) channels_[from * workers + to] = std::make_unique<HandoffChannel>(slot_bytes);
    }
  }
  for (std::size_t w = 0; w < workers; ++w) {
    const int fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (fd < 0) {
      const int err = errno;
      for (const int open : wake_fds_) ::close(open);
      throw std::system_error(err, std::generic_category(), "eventfd for worker handoff");
    }
    wake_fds_.push_back(fd);
  }
}

HandoffMesh::~HandoffMesh() {
  for (const int fd : wake_fds_) ::close(fd);
}

void HandoffMesh::wake(std::size_t to) {
  const std::uint64_t one = 1;
  // EAGAIN only when the counter is at its maximum: the worker is woken already.
  [[maybe_unused]] const ssize_t n = ::write(wake_fds_[to], &one, sizeof one);
}

void HandoffMesh::clear_wake(std::size_t to) {
  std::uint64_t count = 0;
  [[maybe_unused]] const ssize_t n = ::read(wake_fds_[to], &count, sizeof count);
}

}  // namespace ncgw::gateway
