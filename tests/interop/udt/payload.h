// Deterministic test payloads and checksums shared by the libudt peer program and our side:
// a byte stream or a sequence of messages of 1..max bytes, both from a seeded xorshift64*.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace ncgw::udt::interop {

// xorshift64* generator (self-contained so the libudt peer needs no ncgw headers).
class Gen {
 public:
  explicit Gen(std::uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint64_t next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 0x2545F4914F6CDD1Dull;
  }
  // Fills p[0..n) with the next bytes of the stream.
  void fill(std::uint8_t* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      if (left_ == 0) { word_ = next(); left_ = 8; }
      p[i] = static_cast<std::uint8_t>(word_);
      word_ >>= 8;
      --left_;
    }
  }
  // Writes the next message (1..max bytes) into p; returns its size.
  std::size_t message(std::uint8_t* p, std::size_t max) {
    const std::size_t n = 1 + static_cast<std::size_t>(next() % max);
    fill(p, n);
    return n;
  }

 private:
  std::uint64_t s_;
  std::uint64_t word_ = 0;
  int left_ = 0;
};

// FNV-1a 64 over everything added; messages add their length (4 bytes, big-endian) first.
class Checksum {
 public:
  void add(const std::uint8_t* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) h_ = (h_ ^ p[i]) * 1099511628211ull;
    bytes_ += n;
  }
  void add_message(const std::uint8_t* p, std::size_t n) {
    const std::uint8_t len[4] = {static_cast<std::uint8_t>(n >> 24), static_cast<std::uint8_t>(n >> 16),
                                 static_cast<std::uint8_t>(n >> 8), static_cast<std::uint8_t>(n)};
    add(len, 4);
    bytes_ -= 4;
    add(p, n);
    ++messages_;
  }
  std::string hex() const {
    char b[17];
    std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(h_));
    return b;
  }
  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t messages() const { return messages_; }

 private:
  std::uint64_t h_ = 14695981039346656037ull;
  std::uint64_t bytes_ = 0;
  std::uint64_t messages_ = 0;
};

}  // namespace ncgw::udt::interop
