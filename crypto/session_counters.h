// Counters of the secure layer of one peer (all monotonic); `ncgw status` shows them as sec_*.
#pragma once
#include <cstdint>

namespace ncgw::crypto {

struct SessionCounters {
  std::uint64_t rx_records = 0, tx_records = 0;        // data records opened / sealed
  std::uint64_t keepalives_sent = 0;                   // empty records (key confirmation)
  std::uint64_t handshakes_initiated = 0;              // message 1 sent (retries included)
  std::uint64_t handshakes_answered = 0;               // message 2 sent
  std::uint64_t handshakes_completed = 0;              // message 2 accepted (we initiated)
  std::uint64_t handshakes_crossed = 0;    // peer's message 1 left unanswered: ours was under way
  std::uint64_t cookie_replies_sent = 0, cookies_received = 0;
  std::uint64_t drop_malformed = 0;        // wrong type or length
  std::uint64_t drop_bad_tag = 0;          // data record that did not authenticate
  std::uint64_t drop_replay = 0;           // counter already seen or behind the window
  std::uint64_t drop_unknown_key = 0;      // receiver index of no live key pair (or expired)
  std::uint64_t drop_bad_mac1 = 0;         // handshake message without a valid mac1
  std::uint64_t drop_cookie_needed = 0;    // initiation under load without a valid mac2
  std::uint64_t drop_rate_limited = 0;     // initiation under load beyond the handshake rate
  std::uint64_t drop_handshake_invalid = 0;  // handshake that failed Noise (wrong key or psk)
  std::uint64_t drop_wrong_peer = 0;       // initiation from a static key other than the peer's
  std::uint64_t drop_stale_timestamp = 0;  // initiation not newer than the last one (replayed)
  std::uint64_t drop_bad_cookie = 0;       // cookie reply that did not authenticate
  std::uint64_t tx_no_session = 0;         // transport datagrams dropped: no usable key yet
  std::uint64_t tx_staged = 0;             // transport datagrams held until the first key, sent then
};

}  // namespace ncgw::crypto
