#include "gateway/cli.h"

#include <CLI/CLI.hpp>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <iostream>

#include "config/loader.h"
#include "crypto/keys.h"
#include "gateway/control_server.h"
#include "gateway/secure_random.h"
#include "gateway/core_factory.h"
#include "gateway/run_daemon.h"
#include "gateway/status_json.h"
#include "gateway/version.h"

namespace ncgw::gateway {

namespace {

// Loads a config or prints its error; nullopt means "exit 2". Warnings go to stderr, one a line
// ("ncgw: FILE:LINE:COLUMN: warning: KEY: ..."), and do not change the exit status.
std::optional<config::GatewayConfig> load_or_report(const std::string& path) {
  std::vector<config::ConfigWarning> warnings;
  auto result = config::load_config_file(path, &warnings);
  if (auto* err = std::get_if<config::ConfigError>(&result)) {
    std::cerr << "ncgw: " << config::format_error(*err) << "\n";
    return std::nullopt;
  }
  for (const auto& w : warnings) std::cerr << "ncgw: " << config::format_warning(w) << "\n";
  return std::get<config::GatewayConfig>(std::move(result));
}

// The normalised config, with `mtu: auto` annotated by the value it resolves to.
std::string normalised_yaml(const config::GatewayConfig& cfg) {
  std::string text = config::to_yaml(cfg);
  if (cfg.tun.mtu) return text;
  const std::string auto_line = "mtu: auto  # ";
  const auto at = text.find(auto_line);
  if (at == std::string::npos) return text;
  const auto level = spdlog::default_logger()->level();
  spdlog::set_level(spdlog::level::off);   // building the cores logs their seeds
  const std::uint32_t mtu = auto_tun_mtu(cfg);
  spdlog::set_level(level);
  text.insert(at + auto_line.size(), "resolves to " + std::to_string(mtu) + ": ");
  return text;
}

// One warning line on stderr for every peer whose datagrams travel in clear.
void warn_plaintext_peers(const config::GatewayConfig& cfg) {
  for (const auto& p : cfg.peers) {
    if (p.security != config::Security::none) continue;
    std::cerr << "ncgw: warning: peer " << p.name << ": security: none: its datagrams are neither encrypted nor "
              << "authenticated; anyone who can send from " << p.endpoint_host << " reaches the tunnel\n";
  }
}

// `ncgw genkey`: a fresh X25519 private key, base64, on stdout.
int cmd_genkey() {
  crypto::Key random;
  secure_random(random);
  std::cout << crypto::to_base64(crypto::private_from_random(random)) << "\n";
  crypto::wipe(random);
  return kExitOk;
}

// `ncgw pubkey`: the public key of the base64 private key on stdin.
int cmd_pubkey() {
  std::string line;
  std::getline(std::cin, line);
  const auto key = crypto::from_base64(line);
  crypto::wipe({reinterpret_cast<std::uint8_t*>(line.data()), line.size()});
  if (!key) {
    std::cerr << "ncgw pubkey: expected a base64 private key (ncgw genkey) on stdin\n";
    return kExitConfig;
  }
  std::cout << crypto::to_base64(crypto::x25519_public(*key)) << "\n";
  return kExitOk;
}

int cmd_check_config(const std::string& path) {
  auto cfg = load_or_report(path);
  if (!cfg) return kExitConfig;
  warn_plaintext_peers(*cfg);
  try {
    std::cout << normalised_yaml(*cfg);
  } catch (const TransportUnavailable& e) {
    std::cerr << "ncgw: " << e.what() << "\n";
    return kExitConfig;
  }
  return kExitOk;
}

// The socket to ask: --socket, else /run/ncgw/<name>.sock, else the only socket in /run/ncgw.
std::string pick_status_socket(const std::string& socket, const std::string& name) {
  if (!socket.empty()) return socket;
  if (!name.empty()) return config::default_control_socket(name);
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(config::kControlSocketDir, ec)) {
    if (e.path().extension() == ".sock") found.push_back(e.path().string());
  }
  if (found.size() == 1) return found.front();
  throw std::runtime_error(found.empty() ? "no running gateway found in /run/ncgw"
                                         : "several gateways run here: choose one with --name or --socket");
}

int cmd_status(const std::string& socket, const std::string& name, bool as_json) {
  try {
    const std::string reply = control_request(pick_status_socket(socket, name), "status");
    std::cout << (as_json ? reply : render_status_table(reply));
    return kExitOk;
  } catch (const std::exception& e) {
    std::cerr << "ncgw status: " << e.what() << "\n";
    return kExitRuntime;
  }
}

// Sends logs to stderr or the configured file at the configured level.
void setup_logging(const config::LoggingConfig& log, const std::string& gateway) {
  std::shared_ptr<spdlog::logger> logger =
      log.file.empty() ? spdlog::stderr_color_mt("ncgw") : spdlog::basic_logger_mt("ncgw", log.file);
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e [" + gateway + "] %^%l%$ %v");
  logger->set_level(spdlog::level::from_str(log.level));
  spdlog::set_default_logger(logger);
}

int cmd_run(const std::string& path) {
  auto cfg = load_or_report(path);
  if (!cfg) return kExitConfig;
  setup_logging(cfg->logging, cfg->name);
  return run_daemon(*cfg);
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{"ncgw: loss-masking IP tunnel gateway (TCP/NC and UDT transports)"};
  app.set_version_flag("--version", std::string("ncgw ") + kVersion);
  app.require_subcommand(1);

  std::string run_config;
  auto* run = app.add_subcommand("run", "Run a gateway in the foreground (SIGINT/SIGTERM stop it cleanly)");
  run->add_option("--config,-c", run_config, "Gateway YAML file")->required();

  std::string check_file;
  auto* check = app.add_subcommand("check-config", "Validate a config and print it with every default filled in");
  check->add_option("file", check_file, "Gateway YAML file")->required();

  std::string socket, name;
  bool as_json = false;
  auto* status = app.add_subcommand("status", "Show a running gateway's counters");
  status->add_option("--socket", socket, "Control socket path");
  status->add_option("--name", name, "Gateway name (socket /run/ncgw/NAME.sock)");
  status->add_flag("--json", as_json, "Print the raw JSON document");

  auto* genkey = app.add_subcommand("genkey", "Print a new private key (base64); keep it in a file of mode 600");
  auto* pubkey = app.add_subcommand("pubkey", "Read a private key on stdin, print its public key (base64)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitConfig;
  }
  if (*run) return cmd_run(run_config);
  if (*check) return cmd_check_config(check_file);
  if (*genkey) return cmd_genkey();
  if (*pubkey) return cmd_pubkey();
  return cmd_status(socket, name, as_json);
}

}  // namespace ncgw::gateway
