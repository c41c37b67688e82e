// The sender's congestion control of one UDT connection: CUDTCC (the reference library's, the
// default), PaUDT's window rule, or the model-based controller (bbr_cc.h). One value owns whichever
// was selected; the connection calls it the same way for all three. The choice is the sender's
// alone: nothing on the wire changes, so a plain UDT4 peer works with any of them.
#pragma once
#include <cstdint>
#include <variant>

#include "transports/common/time.h"
#include "transports/udt/bbr_cc.h"
#include "transports/udt/cudtcc.h"
#include "transports/udt/paudt_cc.h"

namespace ncgw::udt {

// Which congestion control a connection runs.
enum class CcKind : std::uint8_t { udt4, paudt, bbr };

// What a controller starts from when the connection is established.
struct CcStart {
  CcKind kind = CcKind::udt4;
  std::int32_t snd_curr_seq = 0;      // last sequence number sent (ISN - 1)
  std::int32_t max_cwnd = 8192;       // the peer's flow window (packets)
  std::int32_t mss = 1500;
  std::int32_t initial_window = 16;
  TimePoint now{};
  std::uint64_t seed = 1;
  int max_decreases = 5;              // CUDTCC's decreases per congestion epoch
  std::uint32_t send_buffer_packets = 8192;  // bounds what is in flight (bbr's snapshot ring)
};

// Dispatches to the selected controller (no allocation after init).
class RateControl {
 public:
  // (Re)starts the selected controller when the connection is established.
  void init(const CcStart& s);
  void set_rtt(std::int32_t rtt_us);
  void set_rcv_rate(std::int32_t r);
  void set_bandwidth(std::int32_t b);
  void set_snd_curr_seq(std::int32_t s);
  // Packet `seq` left (bbr keeps its delivery-rate snapshot; the others ignore it).
  void on_sent(std::int32_t seq, TimePoint now, std::uint32_t in_flight, bool retransmission);
  // Nothing waited to be sent though the window allowed it (bbr: samples are application-limited).
  void on_app_limited(std::uint32_t in_flight);
  // A full ACK moved the acknowledged edge from `last_ack` to `ack`; `in_flight` remain;
  // `arrival_rate` (packets/s, 0: none) and `rtt_us` are what the receiver measured and put in it.
  void on_ack(std::int32_t last_ack, std::int32_t ack, TimePoint now, std::uint32_t in_flight,
              std::int32_t arrival_rate, std::int32_t rtt_us);
  // A NAK whose first lost sequence number is `first_loss` reported new losses (CUDTCC, PaUDT).
  void on_loss(std::int32_t first_loss);
  // A NAK reported [first, last] lost (sent packets only; bbr counts each transmission once).
  void on_loss_range(std::int32_t first, std::int32_t last);
  void on_timeout(TimePoint now);
  void on_congestion_warning();
  double period_us() const;
  double cwnd() const;
  bool slow_start() const;
  // Slow-start threshold (PaUDT; 0 under the others, which have none).
  double ssthresh() const;
  // The model-based controller when selected, else null (its figures go into the status).
  const transport::BbrController* bbr() const;

 private:
  std::variant<Cudtcc, PaudtCc, BbrCc> cc_;
};

}  // namespace ncgw::udt
