#include "crypto/noise.h"

#include "crypto/wire.h"

#include <algorithm>
#include <cstring>

namespace ncgw::crypto {

namespace {
Bytes as_bytes(std::string_view s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }
}  // namespace

SymmetricState::SymmetricState(std::string_view protocol_name, Bytes prologue) {
  if (protocol_name.size() <= h_.size()) {
    std::copy(protocol_name.begin(), protocol_name.end(), h_.begin());
  } else {
    h_ = hash(as_bytes(protocol_name));
  }
  ck_ = h_;
  mix_hash(prologue);
}

SymmetricState::~SymmetricState() {
  wipe(ck_);
  wipe(k_);
}

void SymmetricState::mix_hash(Bytes data) { h_ = hash(h_, data); }

void SymmetricState::mix_key(Bytes input) {
  hkdf(ck_, input, ck_, k_);
  n_ = 0;
}

void SymmetricState::mix_key_and_hash(Bytes input) {
  Key temp_h;
  hkdf(ck_, input, ck_, temp_h, &k_);
  mix_hash(temp_h);
  n_ = 0;
}

void SymmetricState::encrypt_and_hash(Bytes plain, std::uint8_t* out) {
  aead_seal(k_, n_++, h_, plain, out);
  mix_hash({out, plain.size() + 16});
}

bool SymmetricState::decrypt_and_hash(Bytes sealed, std::uint8_t* out) {
  if (!aead_open(k_, n_, h_, sealed, out)) return false;
  ++n_;
  mix_hash(sealed);
  return true;
}

void SymmetricState::split(Key& first, Key& second) const { hkdf(ck_, {}, first, second); }

IkHandshake::IkHandshake(const NoiseKeys& keys, bool initiator, Bytes prologue)
    : sym_(wire::kProtocolName, prologue), keys_(keys), initiator_(initiator) {
  // Pre-message pattern "<- s": both sides hash the responder's static public key.
  sym_.mix_hash(initiator ? keys.remote_public : x25519_public(keys.local_private));
}

bool IkHandshake::mix_dh(const Key& priv, const Key& pub) {
  Key shared;
  const bool ok = x25519(priv, pub, shared);
  if (ok) sym_.mix_key(shared);
  wipe(shared);
  return ok;
}

bool IkHandshake::write_message1(const Key& ephemeral_private, Bytes payload, std::uint8_t* out) {
  e_ = ephemeral_private;
  const Key e_pub = x25519_public(e_);
  std::memcpy(out, e_pub.data(), 32);                   // e (psk mode: MixKey(e) too)
  sym_.mix_hash(e_pub);
  sym_.mix_key(e_pub);
  if (!mix_dh(e_, keys_.remote_public)) return false;   // es
  const Key s_pub = x25519_public(keys_.local_private);
  sym_.encrypt_and_hash(s_pub, out + 32);               // s
  if (!mix_dh(keys_.local_private, keys_.remote_public)) return false;  // ss
  sym_.encrypt_and_hash(payload, out + 32 + 48);
  return true;
}

bool IkHandshake::read_message1(Bytes m, std::uint8_t* payload_out) {
  if (m.size() < kNoiseMessage1Overhead) return false;
  std::copy_n(m.begin(), 32, re_.begin());              // e
  sym_.mix_hash(re_);
  sym_.mix_key(re_);
  if (!mix_dh(keys_.local_private, re_)) return false;  // es
  if (!sym_.decrypt_and_hash(m.subspan(32, 48), rs_.data())) return false;  // s
  if (!mix_dh(keys_.local_private, rs_)) return false;  // ss
  return sym_.decrypt_and_hash(m.subspan(80), payload_out);
}

bool IkHandshake::write_message2(const Key& ephemeral_private, Bytes payload, std::uint8_t* out) {
  e_ = ephemeral_private;
  const Key e_pub = x25519_public(e_);
  std::memcpy(out, e_pub.data(), 32);                   // e
  sym_.mix_hash(e_pub);
  sym_.mix_key(e_pub);
  if (!mix_dh(e_, re_)) return false;                   // ee
  if (!mix_dh(e_, rs_)) return false;                   // se
  sym_.mix_key_and_hash(keys_.psk);                     // psk
  sym_.encrypt_and_hash(payload, out + 32);
  return true;
}

bool IkHandshake::read_message2(Bytes m, std::uint8_t* payload_out) {
  if (m.size() < kNoiseMessage2Overhead) return false;
  std::copy_n(m.begin(), 32, re_.begin());              // e
  sym_.mix_hash(re_);
  sym_.mix_key(re_);
  if (!mix_dh(e_, re_)) return false;                   // ee
  if (!mix_dh(keys_.local_private, re_)) return false;  // se
  sym_.mix_key_and_hash(keys_.psk);                     // psk
  return sym_.decrypt_and_hash(m.subspan(32), payload_out);
}

TransportKeys IkHandshake::split() const {
  Key first, second;
  sym_.split(first, second);
  return initiator_ ? TransportKeys{first, second} : TransportKeys{second, first};
}

}  // namespace ncgw::crypto
