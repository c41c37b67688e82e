// PaUDT's window rule (paper 000 section 3, Figure 1), a selectable alternative to CUDTCC for
// tunnels between two ncgw gateways: a congestion window that starts at the initial window
// (16 by default, section 5.1.3), grows by slow start up to the slow-start threshold (at first the initial window
// itself) and additively after it (about one packet per RTT); after three NAKs reporting losses
// sent since the last decrease, the lost packets go out at once (the sender's loss list has
// priority), the threshold is halved and the window set to it. Sending is paced over the RTT
// (period = RTT / window) so that a window does not leave as one burst.
#pragma once
#include <cstdint>

namespace ncgw::udt {

// The window rule; the same calls as Cudtcc, so the connection drives either.
class PaudtCc {
 public:
  // Starts in slow start with `initial_window` packets (the threshold starts there too).
  void init(std::int32_t snd_curr_seq, std::int32_t max_cwnd, std::int32_t initial_window);
  // Latest smoothed RTT (us).
  void set_rtt(std::int32_t rtt_us) { rtt_us_ = rtt_us; }
  // Last sequence number sent.
  void set_snd_curr_seq(std::int32_t s) { snd_curr_seq_ = s; }
  // A full ACK acknowledged everything before `ack`.
  void on_ack(std::int32_t ack);
  // A NAK whose first lost sequence number is `first_loss`.
  void on_loss(std::int32_t first_loss);
  // The EXP timer fired with unacknowledged data: threshold halved, window to the smaller of the
  // initial window and the threshold (the paper does not say; this is TCP's rule with a larger floor).
  void on_timeout();
  // A congestion warning from the receiver: treated as a decrease.
  void on_congestion_warning() { decrease(); }
  // Inter-packet period (us): the window spread over the RTT.
  double period_us() const;
  double cwnd() const { return cwnd_; }
  double ssthresh() const { return ssthresh_; }
  bool slow_start() const { return cwnd_ < ssthresh_; }
  // Decreases so far (three-NAK events, warnings and timeouts).
  std::uint64_t decreases() const { return decreases_; }

 private:
  // Halves the threshold (at least 2) and sets the window to it; NAKs for packets sent before this
  // point no longer count.
  void decrease();

  double cwnd_ = 16, ssthresh_ = 16, initial_ = 16, max_cwnd_ = 8192;
  std::int32_t last_ack_ = 0, snd_curr_seq_ = 0, recovery_seq_ = 0;
  std::int32_t rtt_us_ = 100'000;
  int naks_ = 0;  // NAKs since the last decrease that report losses sent after it
  std::uint64_t decreases_ = 0;
};

}  // namespace ncgw::udt
