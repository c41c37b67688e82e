// Public API of the config library: YAML text or file -> validated GatewayConfig (and warnings
// about values that load but are probably wrong), or one precise error (file:line:column, key
// path, what was expected); and back to normalised YAML.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "config/config.h"

namespace ncgw::config {

// Why a configuration was rejected. line and column are 1-based; 0 when the error has no position
// (e.g. the file cannot be read). key_path is e.g. "peers[1].tcpnc.cwnd_max_packets", or empty
// when the error is about the document as a whole.
struct ConfigError {
  std::string file;
  int line = 0;
  int column = 0;
  std::string key_path;
  std::string message;
};

// "gw1.yaml:12:7: peers[0].transport: expected one of plain, tcpnc, udt, got 'tcp'".
// Without a position: "gw1.yaml: message"; without a key path the "key: " part is left out.
std::string format_error(const ConfigError& error);

// A value that loads but is probably not what the operator meant (e.g. tcpnc buffers smaller
// than paper 002 section 2.2 sizes them). Same fields as ConfigError.
struct ConfigWarning {
  std::string file;
  int line = 0;
  int column = 0;
  std::string key_path;
  std::string message;
};

// "gw1.yaml:6:32: warning: peers[0].tcpnc.link_buffer_packets: ...": as format_error, with
// "warning: " after the position.
std::string format_warning(const ConfigWarning& warning);

// Either a valid configuration with every default filled in, or the first error found.
using LoadResult = std::variant<GatewayConfig, ConfigError>;

// Reads and validates a YAML file; the error's `file` is `path` as given. When `warnings` is not
// null it is overwritten with the warnings in document order (left empty when loading fails).
LoadResult load_config_file(const std::string& path, std::vector<ConfigWarning>* warnings = nullptr);

// Validates YAML text; `file_label` names it in errors and warnings.
LoadResult load_config_string(std::string_view yaml, std::string file_label,
                              std::vector<ConfigWarning>* warnings = nullptr);

// The normalised configuration as YAML (every default written out; tun.mtu as `auto` when unset).
// Loading the result gives a configuration equal to `config`.
std::string to_yaml(const GatewayConfig& config);

// The UDP port a transport listens on by default, and a peer's endpoint port when none is given:
// plain 5500, tcpnc 5501, udt 5502.
std::uint16_t default_port(TransportKind kind);

// Canonical names: "plain", "tcpnc", "udt"; "newreno", "cubic"; "remove", "keep".
std::string_view to_string(TransportKind kind);
std::string_view to_string(CongestionControl cc);
std::string_view to_string(UdtRole role);
std::string_view to_string(UdtCongestionControl cc);
std::string_view to_string(TunOnExit on_exit);
std::string_view to_string(TunOffload offload);
std::string_view to_string(Security security);

}  // namespace ncgw::config
