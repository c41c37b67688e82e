// The secure layer of one peer, sans-I/O: the Noise IKpsk2 handshake (noise.h) with WireGuard's
// timers and cookies, and AEAD records with a 64-bit counter nonce and an anti-replay window.
// Key pairs: `current` seals; `previous` (the one before) and `next` (answered, not yet confirmed
// by a record from the initiator) still open records, until reject_after. Time and random bytes
// are passed in; nothing here reads a clock or a socket.
#pragma once
#include <array>
#include <functional>
#include <optional>
#include <vector>

#include "crypto/cookie.h"
#include "crypto/keypair.h"
#include "crypto/noise.h"
#include "crypto/session_counters.h"
#include "crypto/token_bucket.h"
#include "crypto/wire.h"

namespace ncgw::crypto {

// Fills its argument with random bytes from a CSPRNG (the gateway: getrandom; fatal on failure).
using RandomSource = std::function<void(MutBytes)>;

// Keys and timers of one peer's secure layer.
struct SessionSettings {
  Key local_private{};
  Key remote_public{};
  Key psk{};                                   // all zero: no pre-shared key
  std::vector<std::uint8_t> peer_address;      // the cookie is bound to it
  transport::Duration rekey_after = std::chrono::seconds(120);
  transport::Duration reject_after = std::chrono::seconds(180);   // keys die this long after birth
  transport::Duration handshake_retry = std::chrono::seconds(1);  // new message 1 if no answer
  std::uint64_t rekey_after_messages = std::uint64_t{1} << 47;
  std::int64_t wall_offset_ns = 0;             // wall clock minus core time (message 1 timestamps)
  std::uint32_t load_threshold = 20;           // initiations a second beyond which mac2 is required
  std::uint32_t handshakes_per_second = 10;    // initiations processed a second while under load
  std::uint32_t cookie_replies_per_second = 100;
  RandomSource random;
};

// One peer's secure layer.
class Session {
 public:
  explicit Session(SessionSettings settings);

  // Takes a datagram from the peer. A data record is opened into `plain` (at least as large as the
  // datagram) and its payload returned (empty for a keep-alive); anything else returns nothing.
  std::optional<Bytes> receive(Bytes datagram, transport::TimePoint now, MutBytes plain);
  // Next handshake message, cookie reply or keep-alive record to send, written into `out`.
  std::optional<std::size_t> poll_control(MutBytes out, transport::TimePoint now);
  // True while a key pair can seal records.
  bool can_send(transport::TimePoint now) const;
  // Seals the `payload_size` bytes at out[kDataHeaderSize] in place; returns the record size.
  // Requires can_send(now) and out.size() >= payload_size + kRecordOverhead.
  std::size_t seal(MutBytes out, std::size_t payload_size, transport::TimePoint now);
  // Starts handshakes and rekeys that are due.
  void on_timeout(transport::TimePoint now);
  // When on_timeout must next run.
  std::optional<transport::TimePoint> next_deadline() const;

  const SessionCounters& counters() const { return counters_; }
  // Counts a transport datagram dropped because no key pair could seal it.
  void count_tx_no_session() { ++counters_.tx_no_session; }
  void count_tx_staged() { ++counters_.tx_staged; }
  // Age of the key pair that seals, if any.
  std::optional<transport::Duration> key_age(transport::TimePoint now) const;
  // Epoch of the key pair that seals (0: none yet).
  std::uint64_t key_epoch() const { return current_ ? current_->epoch : 0; }

 private:
  // Message 1 we sent and wait an answer to.
  struct Pending {
    IkHandshake hs;
    std::uint32_t local_index;
    transport::TimePoint sent;
    bool with_cookie;   // it carried a mac2
  };
  using Message = std::array<std::uint8_t, wire::kInitiationSize>;

  bool alive(const Keypair& kp, transport::TimePoint now) const;
  Keypair* find_keypair(std::uint32_t local_index, transport::TimePoint now);
  std::optional<Bytes> open_record(Bytes d, transport::TimePoint now, MutBytes plain);
  void on_initiation(Bytes m, transport::TimePoint now);
  bool admit_initiation(Bytes m, transport::TimePoint now);
  void on_response(Bytes m, transport::TimePoint now);
  void on_cookie(Bytes m, transport::TimePoint now);
  void send_initiation(transport::TimePoint now);
  bool rekey_due(transport::TimePoint now) const;
  void install(const TransportKeys& keys, std::uint32_t local, std::uint32_t remote, bool initiator,
               transport::TimePoint now);
  std::uint32_t fresh_index();
  Key random_key();
  void queue(const std::uint8_t* bytes, std::size_t size);
  std::array<std::uint8_t, wire::kTimestampSize> timestamp(transport::TimePoint now) const;

  SessionSettings settings_;
  Key local_public_;
  NoiseKeys noise_keys_;
  Cookies cookies_;
  SessionCounters counters_;
  std::optional<Keypair> current_, previous_, next_;
  std::optional<Pending> pending_;
  std::uint64_t epochs_ = 0;
  bool confirm_due_ = false;   // send a keep-alive record: the responder waits for one
  std::array<std::uint8_t, wire::kTimestampSize> last_timestamp_{};
  // Load accounting: initiations with a valid mac1 in the current one-second window.
  transport::TimePoint load_window_start_{};
  std::uint32_t load_count_ = 0;
  std::optional<transport::TimePoint> under_load_until_;
  TokenBucket handshake_bucket_;
  TokenBucket cookie_bucket_;
  // Control messages waiting for poll_control (a handful at most).
  std::array<Message, 16> out_{};
  std::array<std::size_t, 16> out_size_{};
  std::size_t out_head_ = 0, out_count_ = 0;
};

}  // namespace ncgw::crypto
