// The keys of one finished handshake and the per-direction state that goes with them.
#pragma once
#include <cstdint>

#include "crypto/primitives.h"
#include "crypto/replay_window.h"
#include "transports/common/time.h"

namespace ncgw::crypto {

// Records sealed under one key pair before it is refused (WireGuard's REJECT_AFTER_MESSAGES, for
// the record's 48-bit counter: it must never wrap, and the top of the range stays clear of the
// replay window). At 10 million records a second that is 325 days; keys change every 2 minutes.
inline constexpr std::uint64_t kRejectAfterMessages = (std::uint64_t{1} << 48) - (std::uint64_t{1} << 13) - 1;

// One session's transport keys, indices, send counter and replay window.
struct Keypair {
  Key send{};
  Key receive{};
  std::uint32_t local_index = 0;    // receiver index the peer writes in records to us
  std::uint32_t remote_index = 0;   // receiver index we write in records to the peer
  std::uint64_t send_counter = 0;   // nonce of the next record we seal
  ReplayWindow window;              // counters already received
  transport::TimePoint born{};      // when the handshake finished
  bool initiator = false;           // we sent message 1 of its handshake
  std::uint64_t epoch = 0;          // 1 for the first session of this run, then one more per session
};

}  // namespace ncgw::crypto
