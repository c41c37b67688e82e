// Canonical names of the config enums, default ports, and error formatting.
#include "config/loader.h"
#include "config/sections.h"

namespace ncgw::config {

std::string format_error(const ConfigError& error) {
  std::string out = error.file;
  if (error.line > 0) {
    out.append(":").append(std::to_string(error.line));
    out.append(":").append(std::to_string(error.column));
  }
  out.append(": ");
  if (!error.key_path.empty()) out.append(error.key_path).append(": ");
  return out.append(error.message);
}

std::string format_warning(const ConfigWarning& warning) {
  std::string out = warning.file;
  if (warning.line > 0) {
    out.append(":").append(std::to_string(warning.line));
    out.append(":").append(std::to_string(warning.column));
  }
  out.append(": warning: ");
  if (!warning.key_path.empty()) out.append(warning.key_path).append(": ");
  return out.append(warning.message);
}

std::uint16_t default_port(TransportKind kind) {
  switch (kind) {
    case TransportKind::plain: return 5500;
    case TransportKind::tcpnc: return 5501;
    case TransportKind::udt: return 5502;
  }
  return 0;
}

std::string_view to_string(TransportKind kind) {
  switch (kind) {
    case TransportKind::plain: return "plain";
    case TransportKind::tcpnc: return "tcpnc";
    case TransportKind::udt: return "udt";
  }
  return "?";
}

std::string_view to_string(UdtRole role) {
  for (const auto& [name, r] : detail::kUdtRoleNames)
    if (r == role) return name;
  return "auto";
}

std::string_view to_string(UdtCongestionControl cc) {
  switch (cc) {
    case UdtCongestionControl::paudt: return "paudt";
    case UdtCongestionControl::bbr: return "bbr";
    case UdtCongestionControl::udt4: break;
  }
  return "udt4";
}

std::string_view to_string(CongestionControl cc) {
  switch (cc) {
    case CongestionControl::cubic: return "cubic";
    case CongestionControl::bbr: return "bbr";
    case CongestionControl::newreno: break;
  }
  return "newreno";
}

std::string_view to_string(Security security) { return security == Security::none ? "none" : "aead"; }

std::string_view to_string(TunOnExit on_exit) {
  return on_exit == TunOnExit::keep ? "keep" : "remove";
}

std::string_view to_string(TunOffload offload) { return offload == TunOffload::off ? "off" : "auto"; }

}  // namespace ncgw::config
