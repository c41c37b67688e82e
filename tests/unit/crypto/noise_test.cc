// The handshake and transport keys against the cacophony test vector, and the primitives against
// RFC 7748 (X25519) and FIPS 180-2 (SHA-256).
#include <gtest/gtest.h>

#include "cacophony_ikpsk2.h"
#include "crypto/noise.h"
#include "hex.h"

namespace ncgw::crypto {
namespace {

using namespace test_vectors;
using test::hex;
using test::key;
using test::unhex;

TEST(Primitives, X25519Rfc7748Section61) {
  const Key alice = key("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
  const Key bob = key("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
  EXPECT_EQ(hex(x25519_public(alice)), "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
  EXPECT_EQ(hex(x25519_public(bob)), "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f");
  Key shared;
  ASSERT_TRUE(x25519(alice, x25519_public(bob), shared));
  EXPECT_EQ(hex(shared), "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
}

TEST(Primitives, X25519RefusesLowOrderPoint) {
  Key shared;
  EXPECT_FALSE(x25519(key("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"), Key{}, shared));
}

TEST(Primitives, Sha256Abc) {
  const std::uint8_t abc[] = {'a', 'b', 'c'};
  EXPECT_EQ(hex(hash(abc)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Primitives, AeadRejectsAnyChange) {
  const Key k = key("0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20");
  std::vector<std::uint8_t> buf(20 + 16, 7);
  aead_seal(k, 5, {}, {buf.data(), 20}, buf.data());
  std::vector<std::uint8_t> out(20);
  EXPECT_TRUE(aead_open(k, 5, {}, buf, out.data()));
  EXPECT_FALSE(aead_open(k, 6, {}, buf, out.data()));
  buf[3] ^= 1;
  EXPECT_FALSE(aead_open(k, 5, {}, buf, out.data()));
}

// Runs the vector's handshake; returns both sides' keys.
void run_handshake(TransportKeys& ini_keys, TransportKeys& resp_keys) {
  const auto prologue = unhex(k_init_prologue);
  const NoiseKeys ini{key(k_init_static), key(k_init_remote_static), key(k_psk)};
  const NoiseKeys resp{key(k_resp_static), x25519_public(key(k_init_static)), key(k_psk)};
  IkHandshake i(ini, true, prologue), r(resp, false, prologue);

  const auto p1 = unhex(kMessages[0][0]);
  std::vector<std::uint8_t> m1(kNoiseMessage1Overhead + p1.size()), got1(p1.size());
  ASSERT_TRUE(i.write_message1(key(k_init_ephemeral), p1, m1.data()));
  EXPECT_EQ(hex(m1), kMessages[0][1]);
  ASSERT_TRUE(r.read_message1(m1, got1.data()));
  EXPECT_EQ(got1, p1);
  EXPECT_EQ(r.remote_static(), x25519_public(key(k_init_static)));

  const auto p2 = unhex(kMessages[1][0]);
  std::vector<std::uint8_t> m2(kNoiseMessage2Overhead + p2.size()), got2(p2.size());
  ASSERT_TRUE(r.write_message2(key(k_resp_ephemeral), p2, m2.data()));
  EXPECT_EQ(hex(m2), kMessages[1][1]);
  ASSERT_TRUE(i.read_message2(m2, got2.data()));
  EXPECT_EQ(got2, p2);
  EXPECT_EQ(hex(i.handshake_hash()), k_handshake_hash);
  EXPECT_EQ(hex(r.handshake_hash()), k_handshake_hash);
  ini_keys = i.split();
  resp_keys = r.split();
}

TEST(NoiseIkPsk2, CacophonyHandshakeMessagesAndHash) {
  TransportKeys a, b;
  run_handshake(a, b);
  EXPECT_EQ(a.send, b.receive);
  EXPECT_EQ(a.receive, b.send);
}

TEST(NoiseIkPsk2, CacophonyTransportMessages) {
  TransportKeys ini, resp;
  run_handshake(ini, resp);
  std::uint64_t n_ini = 0, n_resp = 0;
  for (std::size_t m = 2; m < std::size(kMessages); ++m) {
    const bool from_initiator = m % 2 == 0;
    const auto payload = unhex(kMessages[m][0]);
    std::vector<std::uint8_t> out(payload.size() + 16);
    aead_seal(from_initiator ? ini.send : resp.send, from_initiator ? n_ini++ : n_resp++, {}, payload, out.data());
    EXPECT_EQ(hex(out), kMessages[m][1]) << "message " << m;
  }
}

TEST(NoiseIkPsk2, WrongPskFailsAtMessage2) {
  const auto prologue = unhex(k_init_prologue);
  Key other_psk = key(k_psk);
  other_psk[0] ^= 1;
  IkHandshake i({key(k_init_static), key(k_init_remote_static), key(k_psk)}, true, prologue);
  IkHandshake r({key(k_resp_static), x25519_public(key(k_init_static)), other_psk}, false, prologue);
  std::vector<std::uint8_t> m1(kNoiseMessage1Overhead), m2(kNoiseMessage2Overhead);
  std::uint8_t none[1];
  ASSERT_TRUE(i.write_message1(key(k_init_ephemeral), {}, m1.data()));
  ASSERT_TRUE(r.read_message1(m1, none));
  ASSERT_TRUE(r.write_message2(key(k_resp_ephemeral), {}, m2.data()));
  EXPECT_FALSE(i.read_message2(m2, none));
}

TEST(NoiseIkPsk2, ResponderWithOtherKeyCannotReadMessage1) {
  const auto prologue = unhex(k_init_prologue);
  IkHandshake i({key(k_init_static), key(k_init_remote_static), key(k_psk)}, true, prologue);
  IkHandshake r({key(k_init_ephemeral), x25519_public(key(k_init_static)), key(k_psk)}, false, prologue);
  std::vector<std::uint8_t> m1(kNoiseMessage1Overhead);
  std::uint8_t none[1];
  ASSERT_TRUE(i.write_message1(key(k_init_ephemeral), {}, m1.data()));
  EXPECT_FALSE(r.read_message1(m1, none));
}

}  // namespace
}  // namespace ncgw::crypto
