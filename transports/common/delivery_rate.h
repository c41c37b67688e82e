// Delivery-rate sampling (the method of the IETF draft "Delivery Rate Estimation", as BBR uses it):
// every transmission carries a snapshot of how much had been delivered when it was sent; when it is
// acknowledged, the packets delivered since then over the longer of the send and ACK intervals are
// one sample of the rate the path delivers. Counts are in transmissions (datagrams). Losses are
// counted alongside, so a sample also says what share of the interval's transmissions was lost.
#pragma once
#include <cstdint>
#include <optional>

#include "transports/common/time.h"

namespace ncgw::transport {

// What the sampler remembers per transmission (stored with the sender's record of it).
struct DeliverySnapshot {
  std::uint64_t delivered = 0;     // transmissions acknowledged before this one was sent
  std::uint64_t lost = 0;          // transmissions declared lost before this one was sent
  TimePoint delivered_time{};      // when `delivered` last grew, as of the send
  TimePoint first_sent_time{};     // send time of the newest acknowledged transmission, as of the send
  TimePoint sent{};                // this transmission's send time
  bool app_limited = false;        // sent while the sender had less to send than it was allowed
};

// One delivery-rate sample, produced per ACK that acknowledged something.
struct RateSample {
  std::uint64_t delivered = 0;     // transmissions acknowledged over the interval
  std::uint64_t lost = 0;          // transmissions declared lost over the interval
  Duration interval{};             // max(send interval, ACK interval)
  std::uint64_t prior_delivered = 0;  // `delivered` counter when the newest acknowledged one was sent
  bool app_limited = false;        // the interval contained application-limited sending
  bool valid = false;              // long enough an interval to be a rate (see finish())
  // Transmissions per second (0 for an empty interval).
  double rate() const;
};

// The sender-wide counters behind the snapshots and samples.
class DeliveryRateSampler {
 public:
  // Snapshot for a transmission sent at `now` with `in_flight` transmissions already in flight.
  DeliverySnapshot on_sent(TimePoint now, std::uint32_t in_flight);
  // A transmission with snapshot `s` was acknowledged at `now`.
  void on_acked(const DeliverySnapshot& s, TimePoint now);
  // A transmission was declared lost.
  void on_lost() { ++lost_; }
  // Ends the ACK: the sample built from what it acknowledged (nothing if it acknowledged nothing);
  // `valid` when the interval is no shorter than `min_interval` (shorter ones overestimate: ACK
  // compression).
  std::optional<RateSample> finish(Duration min_interval);
  // The sender has nothing to send though the window allows it: samples are application-limited
  // until the transmissions now in flight are delivered.
  void mark_app_limited(std::uint32_t in_flight);
  // Forgets everything (new session).
  void reset() { *this = DeliveryRateSampler(); }

  std::uint64_t delivered() const { return delivered_; }
  std::uint64_t lost() const { return lost_; }
  bool app_limited() const { return app_limited_until_ != 0; }

 private:
  std::uint64_t delivered_ = 0, lost_ = 0;
  TimePoint delivered_time_{}, first_sent_time_{};
  std::uint64_t app_limited_until_ = 0;  // 0: not application-limited
  // The sample being built by the current ACK.
  bool have_ = false;
  DeliverySnapshot newest_{};      // snapshot of the most recently sent transmission acknowledged
  Duration send_elapsed_{}, ack_elapsed_{};
};

}  // namespace ncgw::transport
