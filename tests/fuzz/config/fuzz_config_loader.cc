// libFuzzer entry: the YAML config loader on any text. Loading never throws and never crashes:
// the result is a configuration or an error that formats; a configuration survives the round trip
// through to_yaml (loads again, equal), so the loader and the emitter agree on every value.
#include <cstdint>
#include <string_view>
#include <variant>

#include "config/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ncgw::config;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<ConfigWarning> warnings;
  const LoadResult r = load_config_string(text, "fuzz.yaml", &warnings);
  for (const ConfigWarning& w : warnings) (void)format_warning(w);
  if (const auto* e = std::get_if<ConfigError>(&r)) {
    if (format_error(*e).empty()) __builtin_trap();
    return 0;
  }
  const GatewayConfig& config = std::get<GatewayConfig>(r);
  const LoadResult again = load_config_string(to_yaml(config), "normalised.yaml");
  const auto* reloaded = std::get_if<GatewayConfig>(&again);
  if (!reloaded || !(*reloaded == config)) __builtin_trap();
  return 0;
}
