// Static keys as operators see them: 32 bytes written in standard base64 (44 characters), as `wg`
// writes them. Pure functions: the caller supplies random bytes and reads files.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "crypto/primitives.h"

namespace ncgw::crypto {

// Standard base64 (with padding) of a key: 44 characters.
std::string to_base64(const Key& key);
// A key from its base64 text (surrounding whitespace ignored); nothing unless exactly 32 bytes.
std::optional<Key> from_base64(std::string_view text);
// A private key from 32 random bytes, clamped as X25519 specifies (RFC 7748 section 5).
Key private_from_random(const Key& random);

}  // namespace ncgw::crypto
