// Hex text <-> bytes for the crypto tests' known vectors.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "crypto/primitives.h"

namespace ncgw::crypto::test {

// Bytes of an even-length hex string.
inline std::vector<std::uint8_t> unhex(std::string_view h) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i + 1 < h.size(); i += 2) out.push_back(static_cast<std::uint8_t>(std::stoi(std::string(h.substr(i, 2)), nullptr, 16)));
  return out;
}

// A 32-byte key from hex.
inline Key key(std::string_view h) {
  const auto b = unhex(h);
  Key k{};
  std::copy(b.begin(), b.end(), k.begin());
  return k;
}

// Lower-case hex of bytes.
inline std::string hex(Bytes b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (auto c : b) {
    s += d[c >> 4];
    s += d[c & 15];
  }
  return s;
}

}  // namespace ncgw::crypto::test
