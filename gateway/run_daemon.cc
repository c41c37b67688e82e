#include "gateway/run_daemon.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include "gateway/asio.h"

#include "gateway/cli.h"
#include "gateway/core_factory.h"
#include "gateway/gateway.h"
#include "gateway/privileges.h"

namespace ncgw::gateway {

int run_daemon(const config::GatewayConfig& cfg) {
  boost::asio::io_context io(1);
  std::unique_ptr<Gateway> gw;
  try {
    const std::optional<RunAs> run_as = resolve_run_as(cfg.user);   // an unknown user fails first
    gw = std::make_unique<Gateway>(io, cfg);
    if (run_as) {
      gw->hand_over(run_as->uid);
      drop_privileges(*run_as);
      spdlog::info("gateway {}: running as {} (uid {}), keeping CAP_NET_ADMIN and CAP_NET_BIND_SERVICE", cfg.name,
                   run_as->name, run_as->uid);
    } else if (::geteuid() == 0) {
      spdlog::warn("gateway {}: gateway.user is root: the daemon keeps running as root with every capability",
                   cfg.name);
    }
  } catch (const TransportUnavailable& e) {
    spdlog::error("{}", e.what());
    return kExitConfig;
  } catch (const std::exception& e) {
    spdlog::error("cannot start gateway {}: {}", cfg.name, e.what());
    return kExitRuntime;
  }
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](boost::system::error_code ec, int signo) {
    if (ec) return;
    spdlog::info("signal {}: shutting down", signo);
    gw->stop();
    io.stop();
  });
  try {
    gw->start();
    io.run();
  } catch (const std::exception& e) {
    // The boundary of the event loop: routes, rules and the TUN go before the process does.
    spdlog::critical("gateway {}: unexpected error, shutting down: {}", cfg.name, e.what());
    gw->stop();
    return kExitRuntime;
  }
  gw->stop();
  spdlog::info("gateway {} stopped", cfg.name);
  return kExitOk;
}

}  // namespace ncgw::gateway
