// Wire constants of the secure layer (docs/security.md, "Wire format"). Every datagram of a
// secured peer starts with a one-byte message type; integers are big-endian (network order).
#pragma once
#include <cstddef>
#include <cstdint>

namespace ncgw::crypto::wire {

// Message types (first byte; in handshake messages the next three bytes are zero).
inline constexpr std::uint8_t kTypeInitiation = 1;  // handshake message 1 (initiator -> responder)
inline constexpr std::uint8_t kTypeResponse = 2;    // handshake message 2 (responder -> initiator)
inline constexpr std::uint8_t kTypeCookie = 3;      // cookie reply to a handshake under load
inline constexpr std::uint8_t kTypeData = 4;        // AEAD record carrying one transport datagram

inline constexpr std::size_t kKeySize = 32;         // X25519 keys, symmetric keys, hashes
inline constexpr std::size_t kTagSize = 16;         // Poly1305 tag
inline constexpr std::size_t kMacSize = 16;         // mac1, mac2 and cookie
inline constexpr std::size_t kTimestampSize = 12;   // big-endian seconds (8) + nanoseconds (4)
inline constexpr std::size_t kXNonceSize = 24;      // XChaCha20 nonce of a cookie reply

// Initiation: type(4) sender(4) ephemeral(32) static(32+16) timestamp(12+16) mac1(16) mac2(16).
inline constexpr std::size_t kInitiationSize = 4 + 4 + 32 + 48 + 28 + 16 + 16;
// Response: type(4) sender(4) receiver(4) ephemeral(32) empty(0+16) mac1(16) mac2(16).
inline constexpr std::size_t kResponseSize = 4 + 4 + 4 + 32 + 16 + 16 + 16;
// Cookie reply: type(4) receiver(4) nonce(24) cookie(16+16).
inline constexpr std::size_t kCookieSize = 4 + 4 + 24 + 32;
// Data record: type(1) receiver(4) counter(6), then the ciphertext and its tag. (Secure layer
// version 1 had WireGuard's type(4) receiver(4) counter(8): 5 bytes more on every datagram.)
inline constexpr std::size_t kDataHeaderSize = 11;
inline constexpr std::size_t kOffDataReceiver = 1;  // u32 the receiver's index of the key pair
inline constexpr std::size_t kOffDataCounter = 5;   // u48 the record's counter (its AEAD nonce)
// Bytes a record adds to the datagram it carries: budgeted in every secured core's MTU.
inline constexpr std::size_t kRecordOverhead = kDataHeaderSize + kTagSize;

// Noise protocol name (hashed into the initial chaining key) and WireGuard-style labels.
inline constexpr const char* kProtocolName = "Noise_IKpsk2_25519_ChaChaPoly_SHA256";
inline constexpr const char* kPrologue = "ncgw secure layer v2";
inline constexpr const char* kLabelMac1 = "mac1----";
inline constexpr const char* kLabelCookie = "cookie--";

}  // namespace ncgw::crypto::wire
