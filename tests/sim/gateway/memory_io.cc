#include "tests/sim/gateway/memory_io.h"

#include <algorithm>
#include <cerrno>
#include <utility>

#include "gateway/tun_offload.h"

namespace ncgw::sim {

void MemoryTun::inject(std::span<const std::uint8_t> packet) {
  std::vector<std::uint8_t> frame;
  if (vnet_) frame.assign(gateway::kPlainVnetHeader.begin(), gateway::kPlainVnetHeader.end());
  frame.insert(frame.end(), packet.begin(), packet.end());
  input_.push_back(std::move(frame));
}

std::ptrdiff_t MemoryTun::read_frame(std::span<std::uint8_t> buffer) {
  if (input_.empty()) return 0;
  const auto& frame = input_.front();
  if (frame.size() > buffer.size()) {
    input_.pop_front();
    return -EMSGSIZE;
  }
  std::copy(frame.begin(), frame.end(), buffer.begin());
  const auto n = static_cast<std::ptrdiff_t>(frame.size());
  input_.pop_front();
  return n;
}

int MemoryTun::write_frame(std::span<const std::uint8_t> head, std::span<const std::uint8_t> body) {
  std::vector<std::uint8_t> frame(head.begin(), head.end());
  frame.insert(frame.end(), body.begin(), body.end());
  written_.push_back(std::move(frame));
  return 0;
}

void MemoryPort::arrive(std::span<const std::uint8_t> bytes, const gateway::SocketAddress& from) {
  waiting_.push_back({from, {bytes.begin(), bytes.end()}});
}

std::vector<SentDatagram> MemoryPort::take_sent() { return std::exchange(sent_, {}); }

std::size_t MemoryPort::receive_batch() {
  batch_.clear();
  while (!waiting_.empty() && batch_.size() < gateway::kBatch) {
    batch_.push_back(std::move(waiting_.front()));
    waiting_.pop_front();
  }
  batch_full_ = batch_.size() == gateway::kBatch;
  return batch_.size();
}

void MemoryPort::commit_send(std::size_t length, const gateway::SocketAddress& to) {
  sent_.push_back({to, {slots_[0].begin(), slots_[0].begin() + static_cast<std::ptrdiff_t>(length)}});
}

std::size_t MemoryPort::send_slots(std::span<std::span<std::uint8_t>> out) {
  const std::size_t n = std::min(out.size(), slots_.size());
  for (std::size_t i = 0; i < n; ++i) out[i] = slots_[i];
  return n;
}

void MemoryPort::commit_sends(std::span<const std::size_t> lengths, const gateway::SocketAddress& to) {
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const auto& slot = slots_[i];
    sent_.push_back({to, {slot.begin(), slot.begin() + static_cast<std::ptrdiff_t>(lengths[i])}});
  }
}

}  // namespace ncgw::sim
