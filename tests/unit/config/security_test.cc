// The security keys of peers: plaintext only when written, a valid public key otherwise, the
// gateway's private key file, and the normalised form.
#include <gtest/gtest.h>

#include "config/loader.h"

namespace ncgw::config {
namespace {

constexpr const char* kKey = "u2bqPPUu9/vRQ486VtisYrnvmPgslwx8iNBxtyx8Rn0=";

// The error of `yaml` (empty if it loads).
std::string error_of(const std::string& yaml) {
  const LoadResult r = load_config_string(yaml, "t.yaml");
  if (const auto* e = std::get_if<ConfigError>(&r)) return format_error(*e);
  return "";
}

TEST(config_security, SecuredPeerLoadsWithItsKeys) {
  const LoadResult r = load_config_string(std::string("gateway: {name: gw1, private_key_file: /k}\npeers:\n"
                                                      "  - {name: gw2, endpoint: 10.0.0.2, transport: udt, public_key: \"") +
                                              kKey + "\", preshared_key_file: /p, rekey_after_s: 2}\n",
                                          "t.yaml");
  ASSERT_TRUE(std::holds_alternative<GatewayConfig>(r)) << format_error(std::get<ConfigError>(r));
  const GatewayConfig& c = std::get<GatewayConfig>(r);
  EXPECT_EQ(c.private_key_file, "/k");
  EXPECT_EQ(c.peers[0].security, Security::aead);
  EXPECT_EQ(c.peers[0].public_key, kKey);
  EXPECT_EQ(c.peers[0].preshared_key_file, "/p");
  EXPECT_EQ(c.peers[0].rekey_after_s, 2u);
  const LoadResult again = load_config_string(to_yaml(c), "n.yaml");
  ASSERT_TRUE(std::holds_alternative<GatewayConfig>(again));
  EXPECT_EQ(std::get<GatewayConfig>(again), c);
}

TEST(config_security, PlaintextMustBeWritten) {
  EXPECT_EQ(error_of("gateway: {name: gw1}\npeers:\n  - {name: gw2, endpoint: 10.0.0.2, transport: plain}\n"),
            "t.yaml:3:5: peers[0]: missing key 'public_key' (the peer's `ncgw pubkey`), or write `security: none` "
            "for a plaintext peer");
  EXPECT_EQ(error_of("gateway: {name: gw1}\npeers:\n  - {name: gw2, endpoint: 10.0.0.2, transport: plain, security: none}\n"),
            "");
}

TEST(config_security, KeyTextAndPrivateKeyFileChecked) {
  EXPECT_EQ(error_of("gateway: {name: gw1, private_key_file: /k}\npeers:\n"
                     "  - {name: gw2, endpoint: 10.0.0.2, transport: plain, public_key: abc}\n"),
            "t.yaml:3:67: peers[0].public_key: expected a base64 key of 44 characters (ncgw pubkey), got 'abc'");
  EXPECT_EQ(error_of(std::string("gateway: {name: gw1}\npeers:\n"
                                 "  - {name: gw2, endpoint: 10.0.0.2, transport: plain, public_key: \"") + kKey + "\"}\n"),
            "t.yaml:3:67: peers[0].public_key: a peer with a public_key needs gateway.private_key_file (ncgw genkey > FILE)");
}

TEST(config_security, KeysRefusedWithSecurityNone) {
  EXPECT_EQ(error_of("gateway: {name: gw1}\npeers:\n"
                     "  - {name: gw2, endpoint: 10.0.0.2, transport: plain, security: none, rekey_after_s: 5}\n"),
            "t.yaml:3:86: peers[0].rekey_after_s: rekey_after_s has no effect with security: none");
}

TEST(config_security, UserDefaultsToAutoAndRoundTrips) {
  const LoadResult r = load_config_string("gateway: {name: gw1}\n", "t.yaml");
  ASSERT_TRUE(std::holds_alternative<GatewayConfig>(r));
  EXPECT_EQ(std::get<GatewayConfig>(r).user, "auto");
  for (const char* user : {"root", "ncgw", "_svc-1.a"}) {
    const LoadResult named = load_config_string(std::string("gateway: {name: gw1, user: ") + user + "}\n", "t.yaml");
    ASSERT_TRUE(std::holds_alternative<GatewayConfig>(named)) << user;
    const GatewayConfig& c = std::get<GatewayConfig>(named);
    EXPECT_EQ(c.user, user);
    const LoadResult again = load_config_string(to_yaml(c), "n.yaml");
    ASSERT_TRUE(std::holds_alternative<GatewayConfig>(again));
    EXPECT_EQ(std::get<GatewayConfig>(again), c);
  }
}

TEST(config_security, UserNameChecked) {
  for (const char* bad : {"Root", "1abc", "\"\"", "a/b", "abcdefghijklmnopqrstuvwxyz0123456"}) {
    EXPECT_NE(error_of(std::string("gateway: {name: gw1, user: ") + bad + "}\n")
                  .find("gateway.user: expected auto, root or a user name"),
              std::string::npos)
        << bad;
  }
}

}  // namespace
}  // namespace ncgw::config
