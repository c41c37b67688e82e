// CUDTCC, the reference library's rate control (ccc.cpp): slow start on a window, then DAIMD on the
// packet sending period with increases sized from the packet-pair capacity estimate, and
// randomised decreases per congestion epoch. Randomness comes from the seeded Rng, not rand().
#pragma once
#include <cstdint>

#include "transports/common/rng.h"
#include "transports/udt/wire.h"

namespace ncgw::udt {

class Cudtcc {
 public:
  // Starts in slow start; `snd_curr_seq` is the last sequence number sent (ISN - 1).
  // `max_decreases` caps the decreases per congestion epoch (the library: 5, i.e. down to 0.51x);
  // `initial_window` is the slow-start window it starts from (the library: 16).
  void init(std::int32_t snd_curr_seq, std::int32_t max_cwnd, std::int32_t mss, std::int64_t now_us,
            std::uint64_t seed, int max_decreases = wire::kMaxDecreasesPerEpoch,
            std::int32_t initial_window = wire::kDefaultInitialWindow);
  // Latest smoothed RTT (us).
  void set_rtt(std::int32_t rtt_us) { rtt_us_ = rtt_us; }
  // Peer's smoothed packet arrival rate (packets/s).
  void set_rcv_rate(std::int32_t r) { rcv_rate_ = r; rate_known_ = true; }
  // Peer's smoothed link capacity (packets/s).
  void set_bandwidth(std::int32_t b) { bandwidth_ = b; }
  // Last sequence number sent.
  void set_snd_curr_seq(std::int32_t s) { snd_curr_seq_ = s; }
  // A full ACK acknowledged up to `ack` (rate control runs at most once per SYN).
  void on_ack(std::int32_t ack, std::int64_t now_us);
  // A NAK whose first lost sequence number is `first_loss`.
  void on_loss(std::int32_t first_loss);
  // The EXP timer fired with unacknowledged data. Unlike the library, slow start continues while no
  // arrival rate has been reported (the library then falls to its initial 16 packets/s).
  void on_timeout();
  // A congestion warning arrived (type 4): one decrease.
  void on_congestion_warning();
  // Inter-packet period (us).
  double period_us() const { return period_; }
  // Congestion window (packets).
  double cwnd() const { return cwnd_; }
  // True while in slow start.
  bool slow_start() const { return slow_start_; }

 private:
  void leave_slow_start();

  transport::Rng rng_{1};
  double period_ = wire::kInitialPeriodUs;
  double cwnd_ = wire::kInitialCwnd;
  double last_dec_period_ = 1;
  std::int64_t last_rc_us_ = 0;
  std::int32_t last_ack_ = 0;
  std::int32_t last_dec_seq_ = 0;
  std::int32_t snd_curr_seq_ = 0;
  std::int32_t max_cwnd_ = 8192;
  std::int32_t mss_ = 1500;
  std::int32_t rtt_us_ = wire::kInitialRttUs;
  std::int32_t rcv_rate_ = wire::kInitialDeliveryRate;
  std::int32_t bandwidth_ = wire::kInitialBandwidth;
  int nak_count_ = 0;
  int dec_count_ = 0;
  int avg_nak_num_ = 0;
  int dec_random_ = 1;
  int max_decreases_ = wire::kMaxDecreasesPerEpoch;
  bool slow_start_ = true;
  bool loss_ = false;
  bool rate_known_ = false;  // a full ACK has reported the peer's arrival rate
};

}  // namespace ncgw::udt
