#include "gateway/log_once.h"

#include <mutex>
#include <set>

#include <spdlog/spdlog.h>

namespace ncgw::gateway {
namespace {

// True the first time `key` is seen (thread-safe; cores are built off the packet path).
bool first_time(const std::string& key) {
  static std::mutex mutex;
  static std::set<std::string> seen;
  const std::lock_guard<std::mutex> lock(mutex);
  return seen.insert(key).second;
}

}  // namespace

void warn_once(const std::string& key, const std::string& message) {
  if (first_time(key)) spdlog::warn("{}", message);
}

void info_once(const std::string& key, const std::string& message) {
  if (first_time(key)) spdlog::info("{}", message);
}

}  // namespace ncgw::gateway
