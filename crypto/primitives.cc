#include "crypto/primitives.h"

#include <sodium.h>

#include <stdexcept>

namespace ncgw::crypto {

void init_sodium() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
}

Key hash(Bytes a, Bytes b) {
  crypto_hash_sha256_state st;
  crypto_hash_sha256_init(&st);
  crypto_hash_sha256_update(&st, a.data(), a.size());
  crypto_hash_sha256_update(&st, b.data(), b.size());
  Key out;
  crypto_hash_sha256_final(&st, out.data());
  return out;
}

Key hmac(const Key& key, Bytes a, Bytes b) {
  crypto_auth_hmacsha256_state st;
  crypto_auth_hmacsha256_init(&st, key.data(), key.size());
  crypto_auth_hmacsha256_update(&st, a.data(), a.size());
  crypto_auth_hmacsha256_update(&st, b.data(), b.size());
  Key out;
  crypto_auth_hmacsha256_final(&st, out.data());
  sodium_memzero(&st, sizeof st);
  return out;
}

void hkdf(const Key& ck, Bytes ikm, Key& out1, Key& out2, Key* out3) {
  Key temp = hmac(ck, ikm);
  const std::uint8_t one = 1, two = 2, three = 3;
  out1 = hmac(temp, {&one, 1});
  out2 = hmac(temp, out1, {&two, 1});
  if (out3) *out3 = hmac(temp, out2, {&three, 1});
  sodium_memzero(temp.data(), temp.size());
}

Key x25519_public(const Key& priv) {
  Key pub;
  crypto_scalarmult_base(pub.data(), priv.data());
  return pub;
}

bool x25519(const Key& priv, const Key& pub, Key& shared) {
  return crypto_scalarmult(shared.data(), priv.data(), pub.data()) == 0;
}

namespace {
// The 12-byte IETF nonce Noise uses for ChaChaPoly: 32 zero bits, then the counter little-endian.
std::array<std::uint8_t, 12> noise_nonce(std::uint64_t counter) {
  std::array<std::uint8_t, 12> n{};
  for (int i = 0; i < 8; ++i) n[4 + i] = static_cast<std::uint8_t>(counter >> (8 * i));
  return n;
}
}  // namespace

void aead_seal(const Key& key, std::uint64_t counter, Bytes ad, Bytes plain, std::uint8_t* out) {
  const auto nonce = noise_nonce(counter);
  crypto_aead_chacha20poly1305_ietf_encrypt(out, nullptr, plain.data(), plain.size(), ad.data(), ad.size(),
                                            nullptr, nonce.data(), key.data());
}

bool aead_open(const Key& key, std::uint64_t counter, Bytes ad, Bytes sealed, std::uint8_t* out) {
  if (sealed.size() < crypto_aead_chacha20poly1305_ietf_ABYTES) return false;
  const auto nonce = noise_nonce(counter);
  return crypto_aead_chacha20poly1305_ietf_decrypt(out, nullptr, nullptr, sealed.data(), sealed.size(),
                                                   ad.data(), ad.size(), nonce.data(), key.data()) == 0;
}

void xaead_seal(const Key& key, const std::uint8_t* nonce, Bytes ad, Bytes plain, std::uint8_t* out) {
  crypto_aead_xchacha20poly1305_ietf_encrypt(out, nullptr, plain.data(), plain.size(), ad.data(), ad.size(),
                                             nullptr, nonce, key.data());
}

bool xaead_open(const Key& key, const std::uint8_t* nonce, Bytes ad, Bytes sealed, std::uint8_t* out) {
  if (sealed.size() < crypto_aead_xchacha20poly1305_ietf_ABYTES) return false;
  return crypto_aead_xchacha20poly1305_ietf_decrypt(out, nullptr, nullptr, sealed.data(), sealed.size(),
                                                    ad.data(), ad.size(), nonce, key.data()) == 0;
}

Mac mac(Bytes key, Bytes message) {
  Mac out;
  crypto_generichash(out.data(), out.size(), message.data(), message.size(), key.data(), key.size());
  return out;
}

bool equal(Bytes a, Bytes b) { return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0; }

void wipe(MutBytes bytes) { sodium_memzero(bytes.data(), bytes.size()); }

}  // namespace ncgw::crypto
