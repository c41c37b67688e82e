// The sender's congestion control of one UDT connection: CUDTCC (the reference library's, the
// default, needed for interop) or PaUDT's window rule. One value owns whichever was selected; the
// connection calls it the same way for both.
#pragma once
#include <cstdint>
#include <variant>

#include "transports/udt/cudtcc.h"
#include "transports/udt/paudt_cc.h"

namespace ncgw::udt {

// Which congestion control a connection runs.
enum class CcKind : std::uint8_t { udt4, paudt };

// Dispatches to the selected controller (no allocation; both are plain values).
class RateControl {
 public:
  // (Re)starts the selected controller when the connection is established.
  void init(CcKind kind, std::int32_t snd_curr_seq, std::int32_t max_cwnd, std::int32_t mss,
            std::int32_t initial_window, std::int64_t now_us, std::uint64_t seed, int max_decreases);
  void set_rtt(std::int32_t rtt_us);
  void set_rcv_rate(std::int32_t r);
  void set_bandwidth(std::int32_t b);
  void set_snd_curr_seq(std::int32_t s);
  void on_ack(std::int32_t ack, std::int64_t now_us);
  void on_loss(std::int32_t first_loss);
  void on_timeout();
  void on_congestion_warning();
  double period_us() const;
  double cwnd() const;
  bool slow_start() const;
  // Slow-start threshold (PaUDT; 0 under CUDTCC, which has none).
  double ssthresh() const;

 private:
  std::variant<Cudtcc, PaudtCc> cc_;
};

}  // namespace ncgw::udt
