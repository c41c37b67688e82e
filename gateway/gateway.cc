#include "gateway/gateway.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>

#include "config/loader.h"
#include "gateway/control_server.h"
#include "gateway/core_factory.h"
#include "crypto/secure_core.h"
#include "gateway/peer_keys.h"
#include "gateway/security_log.h"
#include "gateway/status_json.h"

namespace ncgw::gateway {

namespace asio = boost::asio;
using transport::TimePoint;

Gateway::Gateway(asio::io_context& io, const config::GatewayConfig& cfg)
    : io_(io),
      cfg_(cfg),
      epoch_(std::chrono::steady_clock::now()),
      // first: a core that cannot be built fails before we touch the system
      datapath_(cfg, load_peer_keys(cfg), system_core_host(), TimePoint{}) {
  const std::vector<DatagramPort*> port_of_peer = open_ports();
  const std::uint32_t mtu = choose_mtu();
  tun_ = std::make_unique<TunDevice>(cfg_.tun, mtu);
  datapath_.attach(*tun_, port_of_peer, *this);
  for (const auto& p : datapath_.peers()) {
    peer_timers_.push_back(std::make_unique<asio::steady_timer>(io_));
    fudp_timers_.push_back(p.fudp ? std::make_unique<asio::steady_timer>(io_) : nullptr);
  }
  install_routes();
  control_ = std::make_unique<ControlServer>(io_, cfg_, [this] { return status_json(); });
  spdlog::info("gateway {}: tun {} mtu {} ({}, offloads {}), {} peer(s), {} route(s), control {}", cfg_.name,
               tun_->name(), mtu, tun_->created() ? "created" : "attached", tun_->offload_state(),
               datapath_.peers().size(), datapath_.route_count(), control_->path());
}

Gateway::~Gateway() { stop(); }

TimePoint Gateway::now() const {
  return TimePoint(std::chrono::duration_cast<transport::Duration>(std::chrono::steady_clock::now() - epoch_));
}

std::chrono::steady_clock::time_point Gateway::steady(TimePoint t) const {
  return epoch_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(t.time_since_epoch());
}

std::vector<DatagramPort*> Gateway::open_ports() {
  const transport::IpAddress listen = *config::parse_ip(cfg_.listen.address);
  std::vector<DatagramPort*> port_of_peer;
  std::vector<std::uint16_t> numbers;   // index-aligned with ports_
  for (const auto& peer : datapath_.peers()) {
    const std::uint16_t port = listen_port(cfg_, peer.cfg->transport);
    const auto same = std::find(numbers.begin(), numbers.end(), port);
    if (same != numbers.end()) {
      port_of_peer.push_back(ports_[static_cast<std::size_t>(same - numbers.begin())].get());
      continue;
    }
    // UDP GSO and GRO for every transport but UDT, whose packet-pair capacity estimate needs the
    // datagrams' own arrival gaps (udp_port.h).
    const bool offloads = peer.cfg->transport != config::TransportKind::udt;
    ports_.push_back(std::make_unique<UdpPort>(listen, port, offloads));
    numbers.push_back(port);
    port_of_peer.push_back(ports_.back().get());
    spdlog::info("listening on udp {} for {}", ports_.back()->local_name(), config::to_string(peer.cfg->transport));
  }
  return port_of_peer;
}

std::uint32_t Gateway::choose_mtu() const {
  const std::uint32_t limit = auto_tun_mtu(cfg_);   // what check-config prints for `mtu: auto`
  if (!cfg_.tun.mtu) return limit;
  if (*cfg_.tun.mtu > limit) {
    spdlog::warn("tun.mtu {} exceeds what the tunnel carries unfragmented ({}); larger packets are refused "
                 "with ICMP fragmentation needed / packet too big (IPv4 without DF: dropped)",
                 *cfg_.tun.mtu, limit);
  }
  return *cfg_.tun.mtu;
}

void Gateway::install_routes() {
  if (!cfg_.internal_interfaces.empty()) policy_ = std::make_unique<PolicyRouting>(cfg_, tun_->ifindex());
  for (const auto& r : cfg_.routes) {
    if (policy_) {
      policy_->add_route(r.prefix);
    } else {
      tun_->add_route(r.prefix);
    }
  }
}

void Gateway::start() {
  tun_stream_ = std::make_unique<asio::posix::stream_descriptor>(io_, ::dup(tun_->fd()));
  wait_tun();
  for (std::size_t i = 0; i < ports_.size(); ++i) {
    port_waiters_.push_back(std::make_unique<asio::posix::stream_descriptor>(io_, ::dup(ports_[i]->fd())));
    wait_port(i);
  }
  control_->start();
  datapath_.serve_all(now());
  for (std::size_t i = 0; i < fudp_timers_.size(); ++i) arm_fudp(i);
  arm_silence_check();
  arm_security_log();
}

// How often handshake failures are logged (at most one line per peer and reason each time).
constexpr auto kSecurityLogInterval = std::chrono::seconds(5);

void Gateway::arm_security_log() {
  security_timer_ = std::make_unique<asio::steady_timer>(io_, kSecurityLogInterval);
  security_timer_->async_wait([this](boost::system::error_code ec) {
    if (ec || stopped_) return;
    const TimePoint t = now();
    for (auto& p : datapath_.peers()) {
      const auto* secure = dynamic_cast<const crypto::SecureCore*>(p.core.get());
      if (!secure) continue;
      log_security_events(p.cfg->name, secure->session().counters(), p.last_security, secure->session().can_send(t));
    }
    arm_security_log();
  });
}

// How long a peer may stay silent after start before the gateway warns about it (once).
constexpr auto kSilentPeerWarning = std::chrono::seconds(10);

void Gateway::arm_silence_check() {
  silence_timer_ = std::make_unique<asio::steady_timer>(io_, kSilentPeerWarning);
  silence_timer_->async_wait([this](boost::system::error_code ec) {
    if (ec || stopped_) return;
    for (const auto& p : datapath_.peers()) {
      if (p.counters.datagrams_in != 0) continue;
      spdlog::warn("peer {}: no datagram from {} in {} s since start ({} sent); check the endpoint, the "
                   "firewall and the peer's own config{}",
                   p.cfg->name, p.address.to_string(), std::chrono::duration_cast<std::chrono::seconds>(kSilentPeerWarning).count(),
                   p.counters.datagrams_out,
                   p.cfg->transport == config::TransportKind::udt ? " (udt: both sides may be waiting for the other: see udt.role)" : "");
    }
  });
}

// CLOCK_REALTIME minus core time, in ns, sampled now.
static std::int64_t realtime_offset_ns(TimePoint core_now) {
  timespec rt{};
  clock_gettime(CLOCK_REALTIME, &rt);
  return std::int64_t{rt.tv_sec} * 1'000'000'000 + rt.tv_nsec - transport::ns_since_epoch(core_now);
}

void Gateway::wait_tun() {
  tun_stream_->async_wait(asio::posix::stream_descriptor::wait_read, [this](boost::system::error_code ec) {
    if (ec || stopped_) return;
    datapath_.on_tun_readable(now());
    wait_tun();
  });
}

void Gateway::wait_port(std::size_t i) {
  port_waiters_[i]->async_wait(asio::posix::stream_descriptor::wait_read, [this, i](boost::system::error_code ec) {
    if (ec || stopped_) return;
    const TimePoint t = now();
    datapath_.on_port_readable(*ports_[i], t, realtime_offset_ns(t));
    wait_port(i);
  });
}

void Gateway::arm_fudp(std::size_t index) {
  const auto& fudp = datapath_.peers()[index].fudp;
  if (!fudp) return;
  fudp_timers_[index]->expires_at(steady(fudp->next_period()));
  fudp_timers_[index]->async_wait([this, index](boost::system::error_code ec) {
    if (ec || stopped_) return;
    datapath_.on_fudp_period(index, now());
    arm_fudp(index);
  });
}

void Gateway::deadline_changed(std::size_t index, std::optional<TimePoint> deadline) {
  asio::steady_timer& timer = *peer_timers_[index];
  if (!deadline) {
    timer.cancel();
    return;
  }
  timer.expires_at(steady(*deadline));
  timer.async_wait([this, index](boost::system::error_code ec) {
    if (ec || stopped_) return;
    datapath_.on_timeout(index, now());
  });
}

void Gateway::stop() {
  if (stopped_) return;
  stopped_ = true;
  for (auto& t : peer_timers_) t->cancel();
  for (auto& t : fudp_timers_) {
    if (t) t->cancel();
  }
  if (silence_timer_) silence_timer_->cancel();
  if (security_timer_) security_timer_->cancel();
  if (tun_stream_) tun_stream_->close();
  for (auto& w : port_waiters_) w->close();
  if (control_) control_->stop();
  spdlog::info("gateway {} stopping; final counters: {}", cfg_.name, status_json());
  ports_.clear();
  if (policy_) policy_->close();
  if (tun_) tun_->close();
}

std::string Gateway::status_json() const {
  StatusInput in{cfg_, datapath_.counters(), tun_.get(), std::chrono::steady_clock::now() - epoch_};
  for (const auto& p : datapath_.peers()) in.peers.push_back({p.cfg, &p.address, p.core.get(), &p.counters, p.fudp.get()});
  for (const auto& u : ports_) {
    in.ports.push_back({u->local_name(), u->send_errors(), u->receive_errors(), u->truncated(), u->gso(), u->gro(),
                        u->batches()});
  }
  return render_status_json(in);
}

}  // namespace ncgw::gateway
