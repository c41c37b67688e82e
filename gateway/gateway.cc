#include "gateway/gateway.h"

#include <spdlog/spdlog.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>

#include "config/loader.h"
#include "gateway/control_server.h"
#include "gateway/core_factory.h"
#include "gateway/ip_packet.h"
#include "crypto/secure_core.h"
#include "gateway/peer_keys.h"
#include "gateway/security_log.h"
#include "gateway/status_json.h"
#include "gateway/tunnel_rate.h"

namespace ncgw::gateway {

namespace asio = boost::asio;
using transport::TimePoint;

// Packets read from the TUN per readiness event before the loop serves other sources (a read with
// offloads on may hold up to 45 of them).
constexpr std::size_t kTunPacketsPerWake = 256;

Gateway::Gateway(asio::io_context& io, const config::GatewayConfig& cfg)
    : io_(io), cfg_(cfg), epoch_(std::chrono::steady_clock::now()), packet_buf_(kMaxDatagram) {
  build_cores();   // first: a core that cannot be built fails before we touch the system
  open_ports();
  const std::uint32_t mtu = choose_mtu();
  tun_ = std::make_unique<TunDevice>(cfg_.tun, mtu);
  if (tun_->vnet_header()) {
    tun_frame_.resize(kMaxTunFrame);
    splitter_ = std::make_unique<OffloadSplitter>();
    coalescer_ = std::make_unique<TunCoalescer>();
  }
  install_routes();
  control_ = std::make_unique<ControlServer>(io_, cfg_, [this] { return status_json(); });
  spdlog::info("gateway {}: tun {} mtu {} ({}, offloads {}), {} peer(s), {} route(s), control {}", cfg_.name,
               tun_->name(), mtu, tun_->created() ? "created" : "attached", tun_->offload_state(), peers_.size(),
               routes_.size(), control_->path());
}

Gateway::~Gateway() { stop(); }

TimePoint Gateway::now() const {
  return TimePoint(std::chrono::duration_cast<transport::Duration>(std::chrono::steady_clock::now() - epoch_));
}

void Gateway::build_cores() {
  peers_.reserve(cfg_.peers.size());
  auto keys = load_peer_keys(cfg_);
  for (std::size_t i = 0; i < cfg_.peers.size(); ++i) {
    const auto& p = cfg_.peers[i];
    PeerRuntime rt{&p};
    const std::uint16_t port = p.endpoint_port ? p.endpoint_port : config::default_port(p.transport);
    rt.address = SocketAddress::from(*config::parse_ip(p.endpoint_host), port);
    if (keys[i]) {
      spdlog::info("peer {}: encrypted and authenticated (Noise IKpsk2, ChaCha20-Poly1305), peer key {}{}", p.name,
                   p.public_key, keys[i]->psk == crypto::Key{} ? "" : ", with a pre-shared key");
    } else {
      spdlog::warn("peer {}: security: none: its datagrams are neither encrypted nor authenticated; anyone who "
                   "can send from {} reaches the tunnel", p.name, rt.address.to_string());
    }
    rt.core = make_core(cfg_, p, keys[i] ? &*keys[i] : nullptr);
    if (keys[i]) crypto::wipe(keys[i]->local_private);
    rt.timer = std::make_unique<asio::steady_timer>(io_);
    if (p.fudp.enabled) {
      rt.fudp = std::make_unique<fudp::Cfs>(fudp_settings(p.fudp), now());
      rt.fudp_timer = std::make_unique<asio::steady_timer>(io_);
      spdlog::info("peer {}: fudp on, period {} ms, alpha {}, beta {}, flow table {}, idle timeout {} ms{}",
                   p.name, p.fudp.period_ms, p.fudp.alpha, p.fudp.beta, p.fudp.flow_table_size,
                   p.fudp.idle_timeout_ms, p.fudp.shape ? "" : " (not shaping)");
    }
    peers_.push_back(std::move(rt));
  }
}

void Gateway::open_ports() {
  const config::IpAddress listen = *config::parse_ip(cfg_.listen.address);
  auto port_of = [&](config::TransportKind k) {
    switch (k) {
      case config::TransportKind::plain: return cfg_.listen.plain_port;
      case config::TransportKind::tcpnc: return cfg_.listen.tcpnc_port;
      case config::TransportKind::udt: return cfg_.listen.udt_port;
    }
    return std::uint16_t{0};
  };
  for (auto& peer : peers_) {
    const std::uint16_t port = port_of(peer.cfg->transport);
    auto same = std::find_if(peers_.begin(), peers_.end(), [&](const PeerRuntime& o) {
      return o.port && port_of(o.cfg->transport) == port;
    });
    if (same != peers_.end()) {
      peer.port = same->port;
      continue;
    }
    // UDP GSO and GRO for every transport but UDT, whose packet-pair capacity estimate needs the
    // datagrams' own arrival gaps (udp_port.h).
    const bool offloads = peer.cfg->transport != config::TransportKind::udt;
    ports_.push_back(std::make_unique<UdpPort>(listen, port, offloads));
    peer.port = ports_.back().get();
    spdlog::info("listening on udp {} for {}", peer.port->local_name(), config::to_string(peer.cfg->transport));
  }
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
    const auto it = std::find_if(peers_.begin(), peers_.end(),
                                 [&](const PeerRuntime& p) { return p.cfg->name == r.via; });
    routes_.add(r.prefix, static_cast<std::size_t>(it - peers_.begin()));
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
  const TimePoint t = now();
  for (auto& p : peers_) service_peer(p, t);
  for (auto& p : peers_) arm_fudp(p);
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
    for (auto& p : peers_) {
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
    for (const auto& p : peers_) {
      if (p.counters.datagrams_in != 0) continue;
      spdlog::warn("peer {}: no datagram from {} in {} s since start ({} sent); check the endpoint, the "
                   "firewall and the peer's own config{}",
                   p.cfg->name, p.address.to_string(), std::chrono::duration_cast<std::chrono::seconds>(kSilentPeerWarning).count(),
                   p.counters.datagrams_out,
                   p.cfg->transport == config::TransportKind::udt ? " (udt: both sides may be waiting for the other: see udt.role)" : "");
    }
  });
}

void Gateway::wait_tun() {
  tun_stream_->async_wait(asio::posix::stream_descriptor::wait_read, [this](boost::system::error_code ec) {
    if (ec || stopped_) return;
    on_tun_readable();
    wait_tun();
  });
}

void Gateway::wait_port(std::size_t i) {
  port_waiters_[i]->async_wait(asio::posix::stream_descriptor::wait_read, [this, i](boost::system::error_code ec) {
    if (ec || stopped_) return;
    on_port_readable(*ports_[i]);
    wait_port(i);
  });
}

void Gateway::on_tun_readable() {
  const TimePoint t = now();
  std::vector<std::uint8_t>& buf = splitter_ ? tun_frame_ : packet_buf_;
  for (std::size_t packets = 0; packets < kTunPacketsPerWake;) {
    const ssize_t n = ::read(tun_->fd(), buf.data(), buf.size());
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) count_tun_read_error(errno);
    if (n <= 0) break;
    const std::span<std::uint8_t> read{buf.data(), static_cast<std::size_t>(n)};
    if (splitter_) {
      packets += route_tun_frame(read, t);
      continue;
    }
    ++counters_.tun_rx_packets;
    counters_.tun_rx_bytes += read.size();
    route_tun_packet(read, t);
    ++packets;
  }
  service_dirty_peers(t);
}

std::size_t Gateway::route_tun_frame(std::span<std::uint8_t> frame, TimePoint t) {
  const SplitResult r = splitter_->split(frame);
  if (r == SplitResult::bad_header || r == SplitResult::bad_gso_packet) {
    ++counters_.drop_bad_vnet_header;
    return 0;
  }
  if (r == SplitResult::segmented) {
    ++counters_.tun_gso_frames;
    counters_.tun_gso_segments += splitter_->count();
  }
  for (std::size_t i = 0; i < splitter_->count(); ++i) {
    const auto packet = splitter_->segment(i);
    ++counters_.tun_rx_packets;
    counters_.tun_rx_bytes += packet.size();
    route_tun_packet(packet, t);
  }
  return splitter_->count();
}

void Gateway::count_tun_read_error(int error) {
  // Logged at the 1st, 2nd, 4th, 8th... error: a failing TUN cannot flood the log.
  const std::uint64_t n = ++counters_.tun_read_errors;
  if ((n & (n - 1)) == 0) spdlog::error("tun read failed ({} so far): {}", n, std::strerror(error));
}

void Gateway::route_tun_packet(std::span<const std::uint8_t> packet, TimePoint t) {
  const auto dst = ip_destination(packet);
  if (!dst) {
    ++counters_.drop_not_ip;
    return;
  }
  const auto peer_index = routes_.lookup(*dst);
  if (!peer_index) {
    ++counters_.drop_no_route;
    return;
  }
  PeerRuntime& peer = peers_[*peer_index];
  ++peer.counters.tun_packets_routed;
  send_to_peer(peer, packet, t);
}

// The arrival time of datagram i in core time: its kernel timestamp moved from CLOCK_REALTIME onto
// the steady clock, never later than `t`; `t` when the kernel gave none.
static TimePoint arrival_time(const UdpPort& port, std::size_t i, TimePoint t, std::int64_t realtime_minus_core_ns) {
  const std::int64_t ts = port.received_realtime_ns(i);
  if (ts == 0) return t;
  return std::min(t, transport::time_from_ns(ts - realtime_minus_core_ns));
}

// CLOCK_REALTIME minus core time, in ns, sampled now.
static std::int64_t realtime_offset_ns(TimePoint core_now) {
  timespec rt{};
  clock_gettime(CLOCK_REALTIME, &rt);
  return std::int64_t{rt.tv_sec} * 1'000'000'000 + rt.tv_nsec - transport::ns_since_epoch(core_now);
}

void Gateway::on_port_readable(UdpPort& port) {
  const TimePoint t = now();
  const std::int64_t offset = realtime_offset_ns(t);
  for (int round = 0; round < 4; ++round) {
    const std::size_t n = port.receive_batch();
    for (std::size_t i = 0; i < n; ++i) {
      ++counters_.udp_rx_datagrams;
      counters_.udp_rx_bytes += port.received(i).size();
      if (port.truncated(i)) continue;   // counted by the port (status: ports[].truncated)
      PeerRuntime* peer = find_peer(port, port.sender(i));
      if (!peer) {
        ++counters_.drop_unknown_sender;
        continue;
      }
      ++peer->counters.datagrams_in;
      peer->core->on_datagram(port.received(i), arrival_time(port, i, t, offset));
      peer->dirty = true;
    }
    if (!port.batch_was_full()) break;
  }
  service_dirty_peers(t);
}

PeerRuntime* Gateway::find_peer(const UdpPort& port, const SocketAddress& from) {
  for (auto& p : peers_) {
    if (p.port == &port && p.address.same_endpoint(from)) return &p;
  }
  return nullptr;
}

void Gateway::service_dirty_peers(TimePoint t) {
  // Repeats while forwarding between tunnels marks further peers dirty.
  for (bool again = true; again;) {
    again = false;
    for (auto& p : peers_) {
      if (p.dirty) {
        service_peer(p, t);
        again = true;
      }
    }
  }
  for (auto& port : ports_) port->flush();
}

void Gateway::service_peer(PeerRuntime& peer, TimePoint t) {
  peer.dirty = false;
  drain_deliveries(peer, t);
  drain_transmits(peer, t);
  peer.port->flush();
  arm_timer(peer);
}

void Gateway::drain_deliveries(PeerRuntime& peer, TimePoint t) {
  while (auto n = peer.core->poll_deliver(packet_buf_)) deliver(peer, {packet_buf_.data(), *n}, t);
  flush_tun();
}

void Gateway::deliver(PeerRuntime& from, std::span<std::uint8_t> packet, TimePoint t) {
  const ForwardDecision d = forwarder_.route_delivery(packet);
  if (d.action == ForwardAction::to_tun) return write_tun_data(packet);
  if (d.action == ForwardAction::forward) {
    ++from.counters.forwarded_from;
    ++peers_[d.peer].counters.forwarded_to;
    ++counters_.forwarded_packets;
    return send_to_peer(peers_[d.peer], packet, t);
  }
  ++from.counters.ttl_expired;
  ++counters_.ttl_expired;
  if (d.action == ForwardAction::no_answer) {
    ++counters_.icmp_suppressed;
    return;
  }
  ++counters_.icmp_time_exceeded_sent;
  if (d.action == ForwardAction::answer_tun) return write_tun(forwarder_.answer());
  ++peers_[d.peer].counters.icmp_time_exceeded_sent;
  send_to_peer(peers_[d.peer], forwarder_.answer(), t);
}

void Gateway::send_to_peer(PeerRuntime& peer, std::span<const std::uint8_t> packet, TimePoint t) {
  if (!admit(peer, packet, t)) return;
  const transport::SendResult r = peer.core->send(packet, t);
  if (r != transport::SendResult::accepted) ++peer.counters.send_refused;
  if (r == transport::SendResult::too_big) answer_too_big(peer, packet, t);
  peer.dirty = true;
}

void Gateway::answer_too_big(PeerRuntime& peer, std::span<const std::uint8_t> packet, TimePoint t) {
  ++peer.counters.too_big;
  // An ICMP error is never about an ICMP error, so the answer cannot come back here about itself.
  const ForwardDecision d = forwarder_.too_big(packet, peer.core->max_payload());
  if (d.action == ForwardAction::no_answer) return;
  ++counters_.icmp_too_big_sent;
  if (d.action == ForwardAction::answer_tun) return write_tun(forwarder_.answer());
  send_to_peer(peers_[d.peer], forwarder_.answer(), t);
}

void Gateway::write_tun_data(std::span<const std::uint8_t> packet) {
  if (!coalescer_) return write_tun(packet);
  if (coalescer_->add(packet)) return;
  flush_tun();
  if (!coalescer_->add(packet)) write_tun(packet);
}

void Gateway::flush_tun() {
  if (!coalescer_ || coalescer_->empty()) return;
  const std::size_t segments = coalescer_->segments();
  const auto frame = coalescer_->frame();
  coalescer_->clear();
  if (::write(tun_->fd(), frame.data(), frame.size()) < 0) {
    counters_.tun_write_errors += segments;
    return;
  }
  counters_.tun_tx_packets += segments;
  counters_.tun_tx_bytes += frame.size() - kVnetHeaderSize;   // merged: headers counted once
  if (segments > 1) {
    ++counters_.tun_gro_frames;
    counters_.tun_gro_segments += segments;
  }
}

void Gateway::write_tun(std::span<const std::uint8_t> packet) {
  flush_tun();   // what was delivered before this packet is written before it
  // With offloads on every write starts with a virtio_net_hdr: no GSO, checksums complete.
  std::array<iovec, 2> iov{{{const_cast<std::uint8_t*>(kPlainVnetHeader.data()), kVnetHeaderSize},
                            {const_cast<std::uint8_t*>(packet.data()), packet.size()}}};
  const bool vnet = splitter_ != nullptr;
  if (::writev(tun_->fd(), iov.data() + (vnet ? 0 : 1), vnet ? 2 : 1) < 0) {
    ++counters_.tun_write_errors;
    return;
  }
  ++counters_.tun_tx_packets;
  counters_.tun_tx_bytes += packet.size();
}

void Gateway::drain_transmits(PeerRuntime& peer, TimePoint t) {
  for (;;) {
    auto slot = peer.port->send_slot();
    auto n = peer.core->poll_transmit(slot, t);
    if (!n) break;
    peer.port->commit_send(*n, peer.address);
    ++peer.counters.datagrams_out;
  }
}

bool Gateway::admit(PeerRuntime& peer, std::span<const std::uint8_t> packet, TimePoint t) {
  if (!peer.fudp || peer.fudp->on_packet(packet, t)) return true;
  ++peer.counters.fudp_dropped;
  return false;
}

void Gateway::arm_fudp(PeerRuntime& peer) {
  if (!peer.fudp) return;
  peer.fudp_timer->expires_at(epoch_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                           peer.fudp->next_period().time_since_epoch()));
  peer.fudp_timer->async_wait([this, &peer](boost::system::error_code ec) {
    if (ec || stopped_) return;
    peer.fudp->on_period(now(), tunnel_rate_Bps(*peer.core, peer.fudp->mean_packet_bytes()));
    const auto& r = peer.fudp->report();
    spdlog::debug("peer {}: fudp period: {} tcp {} udp, W {:.0f} D {:.0f} B/s, udp avg {:.0f}, BW {:.0f}{}",
                  peer.cfg->name, r.tcp_flows, r.udp_flows, r.prediction.w, r.prediction.d,
                  r.udp_average_Bps, r.available_Bps, r.reallocated ? " reallocated" : "");
    arm_fudp(peer);
  });
}

void Gateway::arm_timer(PeerRuntime& peer) {
  const auto deadline = peer.core->next_deadline();
  if (deadline == peer.armed_deadline) return;
  peer.armed_deadline = deadline;
  if (!deadline) {
    peer.timer->cancel();
    return;
  }
  peer.timer->expires_at(epoch_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                      deadline->time_since_epoch()));
  peer.timer->async_wait([this, &peer](boost::system::error_code ec) {
    if (ec || stopped_) return;
    peer.armed_deadline.reset();
    const TimePoint t = now();
    peer.core->on_timeout(t);
    peer.dirty = true;
    service_dirty_peers(t);   // also serves the peers it forwarded into
  });
}

void Gateway::stop() {
  if (stopped_) return;
  stopped_ = true;
  for (auto& p : peers_) {
    p.timer->cancel();
    if (p.fudp_timer) p.fudp_timer->cancel();
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
  StatusInput in{cfg_, counters_, tun_.get(), std::chrono::steady_clock::now() - epoch_};
  for (const auto& p : peers_) in.peers.push_back({p.cfg, &p.address, p.core.get(), &p.counters, p.fudp.get()});
  for (const auto& u : ports_) {
    in.ports.push_back({u->local_name(), u->send_errors(), u->receive_errors(), u->truncated(), u->gso(), u->gro(),
                        u->batches()});
  }
  return render_status_json(in);
}

}  // namespace ncgw::gateway
