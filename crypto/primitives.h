// Thin wrappers over libsodium: the only place the secure layer calls a cryptographic primitive.
// No primitive is implemented here; each function names the libsodium call it makes.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace ncgw::crypto {

// A 32-byte key, hash or chaining key.
using Key = std::array<std::uint8_t, 32>;
// A 16-byte MAC (mac1, mac2, cookie).
using Mac = std::array<std::uint8_t, 16>;
using Bytes = std::span<const std::uint8_t>;
using MutBytes = std::span<std::uint8_t>;

// Initialises libsodium once; throws std::runtime_error if it cannot.
void init_sodium();

// SHA-256 of the concatenation a || b (crypto_hash_sha256).
Key hash(Bytes a, Bytes b = {});
// HMAC-SHA-256 of the concatenation a || b under `key` (crypto_auth_hmacsha256 multi-part).
Key hmac(const Key& key, Bytes a, Bytes b = {});
// Noise HKDF: two or three outputs from chaining key `ck` and input key material `ikm`.
void hkdf(const Key& ck, Bytes ikm, Key& out1, Key& out2, Key* out3 = nullptr);

// X25519 public key of `priv` (crypto_scalarmult_base).
Key x25519_public(const Key& priv);
// X25519 shared secret; false when the peer key gives an all-zero result (crypto_scalarmult).
bool x25519(const Key& priv, const Key& pub, Key& shared);

// ChaCha20-Poly1305 (IETF) with the Noise nonce: 4 zero bytes, then `counter` little-endian.
// Seal writes plain.size() + 16 bytes to `out` (may alias `plain`).
void aead_seal(const Key& key, std::uint64_t counter, Bytes ad, Bytes plain, std::uint8_t* out);
// Opens `sealed` (ciphertext and tag) into `out` (may alias); false if it does not authenticate.
bool aead_open(const Key& key, std::uint64_t counter, Bytes ad, Bytes sealed, std::uint8_t* out);

// XChaCha20-Poly1305 with a 24-byte nonce (crypto_aead_xchacha20poly1305_ietf), for cookie replies.
void xaead_seal(const Key& key, const std::uint8_t* nonce, Bytes ad, Bytes plain, std::uint8_t* out);
bool xaead_open(const Key& key, const std::uint8_t* nonce, Bytes ad, Bytes sealed, std::uint8_t* out);

// Keyed BLAKE2b with a 16-byte output (crypto_generichash), for mac1, mac2 and cookies.
Mac mac(Bytes key, Bytes message);

// Constant-time equality (sodium_memcmp).
bool equal(Bytes a, Bytes b);
// Overwrites secret bytes (sodium_memzero).
void wipe(MutBytes bytes);

}  // namespace ncgw::crypto
