// Key files as `ncgw genkey` writes them: one base64 key on one line. A file holding a secret
// (private or pre-shared key) is refused when group or others may read or write it.
#pragma once
#include <string>

#include "crypto/primitives.h"

namespace ncgw::gateway {

// Reads the key in `path`; `secret` adds the mode check. Throws std::runtime_error with the path
// and the reason (missing, mode, not a base64 key).
crypto::Key read_key_file(const std::string& path, bool secret);

// The key in base64 `text` (a config value); throws std::runtime_error naming `what`.
crypto::Key parse_key(const std::string& text, const std::string& what);

}  // namespace ncgw::gateway
