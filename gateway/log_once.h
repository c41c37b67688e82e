// Messages logged once per process: the gateway builds a peer's core more than once (first to size
// the TUN device, then for the data path), and a fallback it takes each time needs saying once.
#pragma once
#include <string>

namespace ncgw::gateway {

// Logs `message` at warning level the first time `key` is passed in this process.
void warn_once(const std::string& key, const std::string& message);

// Logs `message` at info level the first time `key` is passed in this process.
void info_once(const std::string& key, const std::string& message);

}  // namespace ncgw::gateway
