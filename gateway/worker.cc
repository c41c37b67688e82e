#include "gateway/worker.h"

#include <sched.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <thread>

#include "config/loader.h"
#include "crypto/secure_core.h"
#include "gateway/core_factory.h"
#include "gateway/security_log.h"
#include "gateway/timer_slack.h"

namespace ncgw::gateway {

namespace asio = boost::asio;
using transport::TimePoint;

namespace {

// Which peers `placement` gives its worker.
std::vector<bool> served_peers(const WorkerPlacement& placement) {
  std::vector<bool> out;
  for (const std::size_t w : placement.worker_of_peer) out.push_back(w == placement.index);
  return out;
}

// CLOCK_REALTIME minus core time, in ns, sampled now.
std::int64_t realtime_offset_ns(TimePoint core_now) {
  timespec rt{};
  clock_gettime(CLOCK_REALTIME, &rt);
  return std::int64_t{rt.tv_sec} * 1'000'000'000 + rt.tv_nsec - transport::ns_since_epoch(core_now);
}

// How long a peer may stay silent after start before the gateway warns about it (once).
constexpr auto kSilentPeerWarning = std::chrono::seconds(10);
// How often handshake failures are logged (at most one line per peer and reason each time).
constexpr auto kSecurityLogInterval = std::chrono::seconds(5);

}  // namespace

WorkerPlacement place_peers(std::size_t index, std::size_t workers, std::size_t peers) {
  WorkerPlacement p{index, workers, {}};
  for (std::size_t i = 0; i < peers; ++i) p.worker_of_peer.push_back(i % workers);
  return p;
}

std::size_t worker_count(const config::GatewayConfig& cfg) {
  const std::size_t peers = std::max<std::size_t>(1, cfg.peers.size());
  if (cfg.workers != 0) return std::min<std::size_t>(cfg.workers, peers);
  cpu_set_t set;
  CPU_ZERO(&set);
  const std::size_t cores = sched_getaffinity(0, sizeof set, &set) == 0
                                ? static_cast<std::size_t>(CPU_COUNT(&set))
                                : std::max(1u, std::thread::hardware_concurrency());
  return std::clamp<std::size_t>(cores, 1, std::min<std::size_t>(peers, config::kMaxWorkers));
}

Worker::Worker(asio::io_context& io, const config::GatewayConfig& cfg, std::vector<std::optional<PeerKeys>> keys,
               WorkerPlacement placement, HandoffMesh* mesh, std::chrono::steady_clock::time_point epoch)
    : io_(io),
      cfg_(cfg),
      placement_(std::move(placement)),
      mesh_(mesh),
      epoch_(epoch),
      datapath_(cfg, std::move(keys), system_core_host(), now(), served_peers(placement_)),
      wake_pending_(placement_.workers, false) {
  port_of_peer_ = open_ports();
}

Worker::~Worker() { halt(); }

TimePoint Worker::now() const {
  return TimePoint(std::chrono::duration_cast<transport::Duration>(std::chrono::steady_clock::now() - epoch_));
}

std::chrono::steady_clock::time_point Worker::steady(TimePoint t) const {
  return epoch_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(t.time_since_epoch());
}

// UDP GSO and GRO for every transport but UDT, which sends with GSO and receives without GRO:
// its packet-pair capacity estimate needs each datagram's own arrival time.
static UdpOffloads udp_offloads(config::TransportKind kind) {
  return kind == config::TransportKind::udt ? UdpOffloads::send_only : UdpOffloads::both;
}

std::vector<DatagramPort*> Worker::open_ports() {
  const std::vector<bool> served = served_peers(placement_);
  if (placement_.workers == 1) return open_shared_ports(served, false);
  const transport::IpAddress listen = *config::parse_ip(cfg_.listen.address);
  std::vector<DatagramPort*> port_of_peer(served.size(), nullptr);
  for (std::size_t i = 0; i < served.size(); ++i) {
    if (!served[i]) continue;
    const auto& peer = datapath_.peers()[i];
    const SocketAddress local = SocketAddress::from(listen, listen_port(cfg_, peer.cfg->transport));
    const UdpOffloads offloads = udp_offloads(peer.cfg->transport);
    ports_.push_back(std::make_unique<UdpPort>(local, offloads, WhenBlocked::drop, PortSharing{true, peer.address}));
    port_of_peer[i] = ports_.back().get();
    spdlog::info("worker {}: udp {} for peer {}", placement_.index, ports_.back()->local_name(), peer.cfg->name);
  }
  // Worker 0 also listens unconnected, so that datagrams from unknown senders are counted.
  if (placement_.index == 0) open_shared_ports(std::vector<bool>(served.size(), true), true);
  return port_of_peer;
}

std::vector<DatagramPort*> Worker::open_shared_ports(const std::vector<bool>& peers, bool reuse_address) {
  const transport::IpAddress listen = *config::parse_ip(cfg_.listen.address);
  std::vector<DatagramPort*> port_of_peer(peers.size(), nullptr);
  std::vector<std::pair<std::uint16_t, UdpPort*>> opened;
  for (std::size_t i = 0; i < peers.size(); ++i) {
    if (!peers[i]) continue;
    const auto kind = datapath_.peers()[i].cfg->transport;
    const std::uint16_t number = listen_port(cfg_, kind);
    const auto same = std::find_if(opened.begin(), opened.end(), [&](const auto& o) { return o.first == number; });
    if (same != opened.end()) {
      port_of_peer[i] = same->second;
      continue;
    }
    const UdpOffloads offloads = udp_offloads(kind);
    ports_.push_back(std::make_unique<UdpPort>(SocketAddress::from(listen, number), offloads, WhenBlocked::drop,
                                               PortSharing{reuse_address, std::nullopt}));
    opened.emplace_back(number, ports_.back().get());
    port_of_peer[i] = ports_.back().get();
    spdlog::info("listening on udp {} for {}", ports_.back()->local_name(), config::to_string(kind));
  }
  return port_of_peer;
}

void Worker::attach(TunIo& tun, int tun_fd, bool reads) {
  tun_ = &tun;
  tun_fd_ = tun_fd;
  reads_tun_ = reads;
  datapath_.attach(tun, port_of_peer_, *this, mesh_ ? this : nullptr);
  for (std::size_t i = 0; i < datapath_.peers().size(); ++i) {
    const auto& p = datapath_.peers()[i];
    peer_timers_.push_back(std::make_unique<asio::steady_timer>(io_));
    armed_fire_.emplace_back();
    fudp_timers_.push_back(p.fudp ? std::make_unique<asio::steady_timer>(io_) : nullptr);
  }
}

void Worker::start() {
  if (reads_tun_) {
    tun_stream_ = std::make_unique<asio::posix::stream_descriptor>(io_, ::dup(tun_fd_));
    wait_tun();
  }
  for (std::size_t i = 0; i < ports_.size(); ++i) {
    port_waiters_.push_back(std::make_unique<asio::posix::stream_descriptor>(io_, ::dup(ports_[i]->fd())));
    wait_port(i);
  }
  if (mesh_) {
    handoff_stream_ =
        std::make_unique<asio::posix::stream_descriptor>(io_, ::dup(mesh_->wake_fd(placement_.index)));
    wait_handoff();
  }
  datapath_.serve_all(now());
  for (std::size_t i = 0; i < fudp_timers_.size(); ++i) arm_fudp(i);
  arm_silence_check();
  arm_security_log();
}

void Worker::halt() {
  if (halted_) return;
  halted_ = true;
  for (auto& t : peer_timers_) t->cancel();
  for (auto& t : fudp_timers_) {
    if (t) t->cancel();
  }
  if (silence_timer_) silence_timer_->cancel();
  if (security_timer_) security_timer_->cancel();
  if (tun_stream_) tun_stream_->close();
  for (auto& w : port_waiters_) w->close();
  if (handoff_stream_) handoff_stream_->close();
}

void Worker::wait_tun() {
  tun_stream_->async_wait(asio::posix::stream_descriptor::wait_read, [this](boost::system::error_code ec) {
    if (ec || halted_) return;
    datapath_.on_tun_readable(now());
    wait_tun();
  });
}

void Worker::wait_port(std::size_t i) {
  port_waiters_[i]->async_wait(asio::posix::stream_descriptor::wait_read, [this, i](boost::system::error_code ec) {
    if (ec || halted_) return;
    const TimePoint t = now();
    datapath_.on_port_readable(*ports_[i], t, realtime_offset_ns(t));
    wait_port(i);
  });
}

void Worker::wait_handoff() {
  handoff_stream_->async_wait(asio::posix::stream_descriptor::wait_read, [this](boost::system::error_code ec) {
    if (ec || halted_) return;
    on_handoff();
    wait_handoff();
  });
}

void Worker::on_handoff() {
  mesh_->clear_wake(placement_.index);
  const TimePoint t = now();
  bool more = false;
  for (std::size_t from = 0; from < placement_.workers; ++from) {
    if (from == placement_.index) continue;
    const std::size_t n = mesh_->channel(from, placement_.index).drain(kHandoffSlots, [&](std::size_t peer, auto packet) {
      datapath_.on_handed_over(peer, packet, t);
    });
    more = more || n == kHandoffSlots;
  }
  datapath_.serve(t);
  if (more) mesh_->wake(placement_.index);   // the rest on the next turn of the loop
}

bool Worker::hand_over(std::size_t peer, std::span<const std::uint8_t> packet) {
  const std::size_t to = placement_.worker_of_peer[peer];
  wake_pending_[to] = true;
  return mesh_->channel(placement_.index, to).push(peer, packet);
}

void Worker::flush() {
  for (std::size_t to = 0; to < wake_pending_.size(); ++to) {
    if (!wake_pending_[to]) continue;
    wake_pending_[to] = false;
    mesh_->wake(to);
  }
}

void Worker::arm_fudp(std::size_t index) {
  const auto& fudp = datapath_.peers()[index].fudp;
  if (!fudp) return;
  fudp_timers_[index]->expires_at(steady(fudp->next_period()));
  fudp_timers_[index]->async_wait([this, index](boost::system::error_code ec) {
    if (ec || halted_) return;
    datapath_.on_fudp_period(index, now());
    arm_fudp(index);
  });
}

void Worker::deadline_changed(std::size_t index, std::optional<TimePoint> deadline) {
  asio::steady_timer& timer = *peer_timers_[index];
  std::optional<TimePoint>& armed = armed_fire_[index];
  if (!deadline) {
    timer.cancel();
    armed.reset();
    return;
  }
  if (armed_timer_serves(armed, *deadline)) return;   // see timer_slack.h
  const TimePoint fire = timer_fire_time(*deadline);
  armed = fire;
  timer.expires_at(steady(fire));
  timer.async_wait([this, index, fire](boost::system::error_code ec) {
    // A wait that completed just before being re-armed still runs: it is not the armed one.
    if (ec || halted_ || armed_fire_[index] != fire) return;
    armed_fire_[index].reset();
    datapath_.on_timeout(index, now());
  });
}

void Worker::arm_security_log() {
  security_timer_ = std::make_unique<asio::steady_timer>(io_, kSecurityLogInterval);
  security_timer_->async_wait([this](boost::system::error_code ec) {
    if (ec || halted_) return;
    const TimePoint t = now();
    for (auto& p : datapath_.peers()) {
      const auto* secure = dynamic_cast<const crypto::SecureCore*>(p.core.get());
      if (!secure) continue;
      log_security_events(p.cfg->name, secure->session().counters(), p.last_security, secure->session().can_send(t));
    }
    arm_security_log();
  });
}

void Worker::arm_silence_check() {
  silence_timer_ = std::make_unique<asio::steady_timer>(io_, kSilentPeerWarning);
  silence_timer_->async_wait([this](boost::system::error_code ec) {
    if (ec || halted_) return;
    for (const auto& p : datapath_.peers()) {
      if (!p.core || p.counters.datagrams_in != 0) continue;
      spdlog::warn("peer {}: no datagram from {} in {} s since start ({} sent); check the endpoint, the "
                   "firewall and the peer's own config{}",
                   p.cfg->name, p.address.to_string(),
                   std::chrono::duration_cast<std::chrono::seconds>(kSilentPeerWarning).count(),
                   p.counters.datagrams_out,
                   p.cfg->transport == config::TransportKind::udt
                       ? " (udt: both sides may be waiting for the other: see udt.role)"
                       : "");
    }
  });
}

void Worker::add_status(GatewayCounters& counters, std::vector<PeerCounters>& peer_counters,
                        std::vector<PeerStatusInput>& peers, std::vector<PortStatusInput>& ports) const {
  counters += datapath_.counters();
  const auto& all = datapath_.peers();
  for (std::size_t i = 0; i < all.size(); ++i) {
    peer_counters[i] += all[i].counters;
    if (all[i].core) peers[i] = {all[i].cfg, &all[i].address, all[i].core.get(), &peer_counters[i], all[i].fudp.get()};
  }
  for (const auto& u : ports_) {
    ports.push_back({u->local_name(), u->send_errors(), u->receive_errors(), u->truncated(), u->gso(), u->gro(),
                     u->batches()});
  }
}

}  // namespace ncgw::gateway
