#include "crypto/keys.h"

#include <sodium.h>

namespace ncgw::crypto {

std::string to_base64(const Key& key) {
  char text[64];
  sodium_bin2base64(text, sizeof text, key.data(), key.size(), sodium_base64_VARIANT_ORIGINAL);
  return text;
}

std::optional<Key> from_base64(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  if (text.size() != 44) return std::nullopt;
  std::uint8_t bytes[33];
  std::size_t len = 0;
  const char* end = nullptr;
  if (sodium_base642bin(bytes, sizeof bytes, text.data(), text.size(), nullptr, &len, &end,
                        sodium_base64_VARIANT_ORIGINAL) != 0 ||
      len != 32 || end != text.data() + text.size()) {
    return std::nullopt;
  }
  Key key;
  std::copy(bytes, bytes + 32, key.begin());
  sodium_memzero(bytes, sizeof bytes);
  return key;
}

Key private_from_random(const Key& random) {
  Key k = random;
  k[0] &= 248;
  k[31] &= 127;
  k[31] |= 64;
  return k;
}

}  // namespace ncgw::crypto
