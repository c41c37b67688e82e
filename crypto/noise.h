// Noise_IKpsk2_25519_ChaChaPoly_SHA256 (Noise specification revision 34, sections 5 and 9), the
// handshake WireGuard uses: one round trip, mutual authentication by static keys, forward secrecy
// from ephemeral keys, an optional pre-shared key mixed in last. Only this one pattern is built.
//   <- s
//   ...
//   -> e, es, s, ss
//   <- e, ee, se, psk
// Pure: ephemeral keys are passed in. Message buffers belong to the caller.
#pragma once
#include <optional>
#include <string_view>

#include "crypto/primitives.h"

namespace ncgw::crypto {

// Bytes of message 1 and 2 around their payloads (e, encrypted s, tags).
inline constexpr std::size_t kNoiseMessage1Overhead = 32 + 48 + 16;
inline constexpr std::size_t kNoiseMessage2Overhead = 32 + 16;

// The two transport keys a finished handshake yields, from this side's point of view.
struct TransportKeys {
  Key send;
  Key receive;
};

// Noise's SymmetricState: chaining key, handshake hash and the current cipher key.
class SymmetricState {
 public:
  // InitializeSymmetric(protocol_name) then MixHash(prologue).
  SymmetricState(std::string_view protocol_name, Bytes prologue);
  ~SymmetricState();
  void mix_hash(Bytes data);
  void mix_key(Bytes input);
  void mix_key_and_hash(Bytes input);
  // EncryptAndHash: writes plain.size() + 16 bytes to out (a key is always set where it is used).
  void encrypt_and_hash(Bytes plain, std::uint8_t* out);
  // DecryptAndHash of sealed (ciphertext + tag) into out; false if it does not authenticate.
  bool decrypt_and_hash(Bytes sealed, std::uint8_t* out);
  // Split(): the initiator's sending key first.
  void split(Key& first, Key& second) const;
  const Key& handshake_hash() const { return h_; }

 private:
  Key ck_{};
  Key h_{};
  Key k_{};
  std::uint64_t n_ = 0;
};

// Static and pre-shared keys of one side.
struct NoiseKeys {
  Key local_private;
  Key remote_public;   // the responder learns it from message 1 and checks it against this
  Key psk{};           // all zero when none is configured (as WireGuard does)
};

// One handshake in progress, either role.
class IkHandshake {
 public:
  IkHandshake(const NoiseKeys& keys, bool initiator, Bytes prologue);
  ~IkHandshake() { wipe(e_); }
  IkHandshake(const IkHandshake&) = default;
  IkHandshake& operator=(const IkHandshake&) = default;

  // Initiator: writes message 1 (kNoiseMessage1Overhead + payload.size() bytes) into out.
  bool write_message1(const Key& ephemeral_private, Bytes payload, std::uint8_t* out);
  // Responder: reads message 1; the payload goes to `payload_out` (message size - overhead bytes).
  // The initiator's static key is then remote_static(); false if anything fails to authenticate.
  bool read_message1(Bytes message, std::uint8_t* payload_out);
  // Responder: writes message 2 (kNoiseMessage2Overhead + payload.size() bytes).
  bool write_message2(const Key& ephemeral_private, Bytes payload, std::uint8_t* out);
  // Initiator: reads message 2.
  bool read_message2(Bytes message, std::uint8_t* payload_out);
  // After message 2: this side's transport keys.
  TransportKeys split() const;
  // The static key the initiator presented (responder side, after read_message1).
  const Key& remote_static() const { return rs_; }
  const Key& handshake_hash() const { return sym_.handshake_hash(); }

 private:
  bool mix_dh(const Key& priv, const Key& pub);
  SymmetricState sym_;
  NoiseKeys keys_;
  bool initiator_;
  Key e_{};   // our ephemeral private key
  Key re_{};  // their ephemeral public key
  Key rs_{};  // their static public key
};

}  // namespace ncgw::crypto
