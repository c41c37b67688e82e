// The Noise_IKpsk2_25519_ChaChaPoly_SHA256 test vector of the cacophony suite (the vectors the
// Noise implementations share), checked byte for byte: both handshake messages, the handshake
// hash, and four transport messages under the split keys.
#pragma once

namespace ncgw::crypto::test_vectors {

inline constexpr const char* k_init_prologue = "4a6f686e2047616c74";
inline constexpr const char* k_init_static = "e61ef9919cde45dd5f82166404bd08e38bceb5dfdfded0a34c8df7ed542214d1";
inline constexpr const char* k_init_ephemeral = "893e28b9dc6ca8d611ab664754b8ceb7bac5117349a4439a6b0569da977c464a";
inline constexpr const char* k_init_remote_static = "31e0303fd6418d2f8c0e78b91f22e8caed0fbe48656dcf4767e4834f701b8f62";
inline constexpr const char* k_resp_static = "4a3acbfdb163dec651dfa3194dece676d437029c62a408b4c5ea9114246e4893";
inline constexpr const char* k_resp_ephemeral = "bbdb4cdbd309f1a1f2e1456967fe288cadd6f712d65dc7b7793d5e63da6b375b";
inline constexpr const char* k_handshake_hash = "8310f86394dc0dabb40beb8210031556db4403ab1202db7034c526232147a700";
inline constexpr const char* k_psk = "54686973206973206d7920417573747269616e20706572737065637469766521";
// payload and ciphertext of each message, in order (initiator first, then alternating).
inline constexpr const char* kMessages[][2] = {
    {"4c756477696720766f6e204d69736573",
     "ca35def5ae56cec33dc2036731ab14896bc4c75dbb07a61f879f8e3afa4c79442ec9b09893d0f510791784c10cbc959f25b1766e0def6e301d14fbca1c7790ac829b8b3674f5f649a5f0e98479662cbfbf2b2c47cd4b09fcd266cd29d7cb675f1808849707847840f6d178ec4d3733aa"},
    {"4d757272617920526f746862617264",
     "95ebc60d2b1fa672c1f46a8aa265ef51bfe38e7ccb39ec5be34069f1448088439a1b3cebf680b2c74217fcb5eba4ff58a9468cd90c4aca6194f57479b379a7"},
    {"462e20412e20486179656b",
     "a8fde7a0accec190cd306c5950d4fd8e04a205ec288aa747d8b347"},
    {"4361726c204d656e676572",
     "59caddd9984a3bbe24c4fb31a2bd455b7eba3fa0980674b1a3a5f9"},
    {"4a65616e2d426170746973746520536179",
     "3b9bfebd210c22ba0cff9de79b4007d7a552fffbf92616881faa8a883e25b80258"},
    {"457567656e2042f6686d20766f6e2042617765726b",
     "f37512df1043d564d7c46ac85c53d3b6a9a05724bc297e7142808f217561651217fe85b782"},
};

}  // namespace ncgw::crypto::test_vectors
