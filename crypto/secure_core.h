// A transport core wrapped in the secure layer: every datagram the inner core emits leaves as an
// AEAD record, and every datagram that arrives must authenticate (and pass the replay window)
// before the inner core's parser sees a byte of it. Handshakes, cookies and keep-alive records
// interleave with the inner core's datagrams. Sans-I/O like the cores it wraps.
#pragma once
#include <array>
#include <memory>
#include <vector>

#include "crypto/session.h"
#include "transports/common/core.h"
#include "transports/common/packet_ring.h"

namespace ncgw::crypto {

// The inner core must be built for datagrams kRecordOverhead bytes smaller than the underlay's.
class SecureCore final : public transport::Core {
 public:
  // `max_inner_datagram`: the largest datagram the inner core emits (sizes the staging slots).
  SecureCore(std::unique_ptr<transport::Core> inner, SessionSettings settings, std::size_t max_inner_datagram);

  void on_datagram(std::span<const std::uint8_t> bytes, transport::TimePoint now) override;
  // Opens every record of the batch first, then hands the payloads to the inner core as one batch.
  void on_datagrams(std::span<const transport::Arrival> batch) override;
  void on_timeout(transport::TimePoint now) override;
  transport::SendResult send(std::span<const std::uint8_t> ip_packet, transport::TimePoint now) override;
  std::optional<std::size_t> poll_transmit(std::span<std::uint8_t> out, transport::TimePoint now) override;
  // Control messages and staged datagrams first; then the inner core fills the rest of the batch
  // at the records' payload offsets and every record is sealed in one pass.
  std::size_t poll_transmits(std::span<const std::span<std::uint8_t>> slots, std::span<std::size_t> lengths,
                             transport::TimePoint now) override;
  std::optional<std::size_t> poll_deliver(std::span<std::uint8_t> out) override;
  std::optional<transport::TimePoint> next_deadline() const override;
  std::size_t max_payload() const override;
  std::vector<transport::StatEntry> stats() const override;

  const Session& session() const { return session_; }
  const transport::Core& inner() const { return *inner_; }

 private:
  std::unique_ptr<transport::Core> inner_;
  Session session_;
  // Takes what the inner core sends before the first key into the staging ring.
  void stage_inner(transport::TimePoint now);
  // Seals the oldest staged datagram into `out`; nullopt when none is staged (or out is too small).
  std::optional<std::size_t> send_staged(std::span<std::uint8_t> out, transport::TimePoint now);

  // Datagrams the inner core sends while no key can seal them (before the first key: its opening
  // message, e.g. TCP/NC's HELLO; or after a key expired without a new handshake) are kept, the
  // newest kStaged of them, and sent first once a key exists (as WireGuard stages packets during
  // its handshake): a transport does not wait for its own retry timer.
  static constexpr std::size_t kStaged = 8;
  std::vector<std::uint8_t> scratch_;   // opened records (a batch of them), and staged datagrams
  std::array<transport::Arrival, transport::kMaxBatch> opened_{};          // a batch's opened payloads
  std::array<std::span<std::uint8_t>, transport::kMaxBatch> inner_slots_{};  // payload parts of send slots
  transport::PacketRing staged_;        // kStaged slots of max_inner_datagram bytes
  transport::TimePoint last_now_{};     // for the key age in stats()
};

}  // namespace ncgw::crypto
