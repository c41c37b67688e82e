// Keys in base64 as operators handle them.
#include <gtest/gtest.h>

#include "crypto/keys.h"
#include "hex.h"

namespace ncgw::crypto {
namespace {

TEST(Keys, Base64RoundTrip) {
  const Key k = test::key("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
  const std::string text = to_base64(k);
  EXPECT_EQ(text.size(), 44u);
  EXPECT_EQ(from_base64(text + "\n"), k);
  EXPECT_EQ(from_base64("  " + text), k);
}

TEST(Keys, Base64RejectsWrongLengthAndJunk) {
  EXPECT_FALSE(from_base64(""));
  EXPECT_FALSE(from_base64("AAAA"));
  EXPECT_FALSE(from_base64(std::string(44, '*')));
  EXPECT_FALSE(from_base64(std::string(43, 'A') + "=="));
}

TEST(Keys, PrivateIsClamped) {
  Key r;
  r.fill(0xff);
  const Key k = private_from_random(r);
  EXPECT_EQ(k[0] & 7, 0);
  EXPECT_EQ(k[31] & 0x80, 0);
  EXPECT_EQ(k[31] & 0x40, 0x40);
}

TEST(Keys, PublicOfRfc7748Alice) {
  const Key alice = test::key("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
  EXPECT_EQ(test::hex(x25519_public(alice)), "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
}

}  // namespace
}  // namespace ncgw::crypto
