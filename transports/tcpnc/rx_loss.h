// Loss on the incoming direction as the receiver sees it: over the most recent kRxLossWindow
// transmission numbers up to the largest received, 1 - received / span. The sender's numbers are
// consecutive over every DATA datagram (docs/tcpnc-mechanism.md "Two sequence spaces"), so the gaps are
// exactly the datagrams the incoming hop lost (or that are still late). Fixed memory (a bitmap),
// no allocation; a cascading gateway reports with it the loss of its upstream hop.
#pragma once
#include <array>
#include <cstdint>

namespace ncgw::tcpnc {

// Transmission numbers the loss figure looks back over (SE about 0.5 pp at 10% loss).
inline constexpr std::uint64_t kRxLossWindow = 4096;

// Receiver-side loss meter over a sliding window of transmission numbers.
class RxLossMeter {
 public:
  // Transmission `tx` arrived; repeats, and numbers older than the window, are ignored.
  void on_received(std::uint64_t tx);
  // 1 - received / span over the window (0 before anything arrived).
  double loss_rate() const;
  // Numbers the figure covers: from the first received (or the window's start) to the largest.
  std::uint64_t span() const;
  // Forgets everything (new session).
  void clear();

 private:
  bool test(std::uint64_t tx) const { return (bits_[(tx % kRxLossWindow) / 64] >> (tx % 64)) & 1U; }
  void set(std::uint64_t tx) { bits_[(tx % kRxLossWindow) / 64] |= std::uint64_t{1} << (tx % 64); }
  void reset(std::uint64_t tx) { bits_[(tx % kRxLossWindow) / 64] &= ~(std::uint64_t{1} << (tx % 64)); }

  std::array<std::uint64_t, kRxLossWindow / 64> bits_{};  // bit (tx % window): tx received
  std::uint64_t first_ = 0, largest_ = 0;  // smallest and largest number received
  std::uint64_t count_ = 0;                // bits set
  bool any_ = false;
};

}  // namespace ncgw::tcpnc
