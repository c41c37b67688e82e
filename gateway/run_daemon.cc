#include "gateway/run_daemon.h"

#include <spdlog/spdlog.h>

#include "gateway/asio.h"

#include "gateway/cli.h"
#include "gateway/core_factory.h"
#include "gateway/gateway.h"

namespace ncgw::gateway {

int run_daemon(const config::GatewayConfig& cfg) {
  boost::asio::io_context io(1);
  std::unique_ptr<Gateway> gw;
  try {
    gw = std::make_unique<Gateway>(io, cfg);
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
