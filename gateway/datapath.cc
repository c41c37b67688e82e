#include "gateway/datapath.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>

#include "config/loader.h"
#include "crypto/primitives.h"
#include "gateway/ip_packet.h"
#include "gateway/tunnel_rate.h"
#include "gateway/udp_port.h"

namespace ncgw::gateway {

using transport::TimePoint;

Datapath::Datapath(const config::GatewayConfig& cfg, std::vector<std::optional<PeerKeys>> keys, const CoreHost& host,
                   TimePoint now, std::vector<bool> serves)
    : cfg_(cfg), packet_buf_(kMaxDatagram) {
  peers_.reserve(cfg_.peers.size());
  for (std::size_t i = 0; i < cfg_.peers.size(); ++i) {
    const auto& p = cfg_.peers[i];
    PeerRuntime rt{&p};
    const std::uint16_t port = p.endpoint_port ? p.endpoint_port : config::default_port(p.transport);
    rt.address = SocketAddress::from(*config::parse_ip(p.endpoint_host), port);
    if (!serves.empty() && !serves.at(i)) {   // another worker's: routing only
      peers_.push_back(std::move(rt));
      continue;
    }
    const PeerKeys* k = i < keys.size() && keys[i] ? &*keys[i] : nullptr;
    if (k) {
      spdlog::info("peer {}: encrypted and authenticated (Noise IKpsk2, ChaCha20-Poly1305), peer key {}{}", p.name,
                   p.public_key, k->psk == crypto::Key{} ? "" : ", with a pre-shared key");
    } else {
      spdlog::warn("peer {}: security: none: its datagrams are neither encrypted nor authenticated; anyone who "
                   "can send from {} reaches the tunnel", p.name, rt.address.to_string());
    }
    rt.core = make_core(cfg_, p, k, &host);
    if (k) crypto::wipe(keys[i]->local_private);
    if (p.fudp.enabled) {
      rt.fudp = std::make_unique<fudp::Cfs>(fudp_settings(p.fudp), now);
      spdlog::info("peer {}: fudp on, period {} ms, alpha {}, beta {}, flow table {}, idle timeout {} ms{}",
                   p.name, p.fudp.period_ms, p.fudp.alpha, p.fudp.beta, p.fudp.flow_table_size,
                   p.fudp.idle_timeout_ms, p.fudp.shape ? "" : " (not shaping)");
    }
    peers_.push_back(std::move(rt));
  }
  for (const auto& r : cfg_.routes) {
    const auto it = std::find_if(peers_.begin(), peers_.end(),
                                 [&](const PeerRuntime& p) { return p.cfg->name == r.via; });
    routes_.add(r.prefix, static_cast<std::size_t>(it - peers_.begin()));
  }
}

void Datapath::attach(TunIo& tun, const std::vector<DatagramPort*>& port_of_peer, DeadlineListener& deadlines,
                      PeerHandoff* handoff) {
  tun_ = &tun;
  deadlines_ = &deadlines;
  handoff_ = handoff;
  for (std::size_t i = 0; i < peers_.size(); ++i) {
    if (!serves(i)) continue;
    peers_[i].port = port_of_peer.at(i);
    if (std::find(ports_.begin(), ports_.end(), port_of_peer[i]) == ports_.end()) ports_.push_back(port_of_peer[i]);
  }
  if (tun.vnet_header()) {
    tun_frame_.resize(kMaxTunFrame);
    splitter_ = std::make_unique<OffloadSplitter>();
    coalescer_ = std::make_unique<TunCoalescer>();
  }
}

void Datapath::serve_all(TimePoint t) {
  for (std::size_t i = 0; i < peers_.size(); ++i) {
    if (serves(i)) serve_peer(i, t);
  }
}

void Datapath::on_handed_over(std::size_t index, std::span<const std::uint8_t> packet, TimePoint t) {
  send_to_peer(peers_.at(index), packet, t);
}

void Datapath::on_tun_readable(TimePoint t) {
  std::vector<std::uint8_t>& buf = splitter_ ? tun_frame_ : packet_buf_;
  for (std::size_t packets = 0; packets < kTunPacketsPerWake;) {
    const std::ptrdiff_t n = tun_->read_frame(buf);
    if (n < 0) count_tun_read_error(static_cast<int>(-n));
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
  serve_dirty_peers(t);
}

std::size_t Datapath::route_tun_frame(std::span<std::uint8_t> frame, TimePoint t) {
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

void Datapath::count_tun_read_error(int error) {
  // Logged at the 1st, 2nd, 4th, 8th... error: a failing TUN cannot flood the log.
  const std::uint64_t n = ++counters_.tun_read_errors;
  if ((n & (n - 1)) == 0) spdlog::error("tun read failed ({} so far): {}", n, std::strerror(error));
}

void Datapath::route_tun_packet(std::span<const std::uint8_t> packet, TimePoint t) {
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

// The arrival time of datagram i in core time: its receive time moved from CLOCK_REALTIME onto
// core time, never later than `t`; `t` when the port gave none.
static TimePoint arrival_time(const DatagramPort& port, std::size_t i, TimePoint t, std::int64_t realtime_minus_core_ns) {
  const std::int64_t ts = port.received_realtime_ns(i);
  if (ts == 0) return t;
  return std::min(t, transport::time_from_ns(ts - realtime_minus_core_ns));
}

void Datapath::on_port_readable(DatagramPort& port, TimePoint t, std::int64_t realtime_minus_core_ns) {
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
      if (peer != arrivals_peer_ || arrivals_count_ == arrivals_.size()) feed_arrivals();
      arrivals_peer_ = peer;
      arrivals_[arrivals_count_++] = {port.received(i), arrival_time(port, i, t, realtime_minus_core_ns)};
    }
    feed_arrivals();   // before the next receive_batch() reuses the buffers
    if (!port.batch_was_full()) break;
  }
  serve_dirty_peers(t);
}

void Datapath::feed_arrivals() {
  if (arrivals_count_ == 0) return;
  arrivals_peer_->core->on_datagrams(std::span(arrivals_).first(arrivals_count_));
  arrivals_peer_->dirty = true;
  arrivals_count_ = 0;
  arrivals_peer_ = nullptr;
}

void Datapath::on_timeout(std::size_t index, TimePoint t) {
  PeerRuntime& peer = peers_[index];
  peer.armed_deadline.reset();
  peer.core->on_timeout(t);
  peer.dirty = true;
  serve_dirty_peers(t);   // also serves the peers it forwarded into
}

void Datapath::on_fudp_period(std::size_t index, TimePoint t) {
  PeerRuntime& peer = peers_[index];
  peer.fudp->on_period(t, tunnel_rate_Bps(*peer.core, peer.fudp->mean_packet_bytes()));
  const auto& r = peer.fudp->report();
  spdlog::debug("peer {}: fudp period: {} tcp {} udp, W {:.0f} D {:.0f} B/s, udp avg {:.0f}, BW {:.0f}{}",
                peer.cfg->name, r.tcp_flows, r.udp_flows, r.prediction.w, r.prediction.d, r.udp_average_Bps,
                r.available_Bps, r.reallocated ? " reallocated" : "");
}

PeerRuntime* Datapath::find_peer(const DatagramPort& port, const SocketAddress& from) {
  for (auto& p : peers_) {
    if (p.port == &port && p.address.same_endpoint(from)) return &p;
  }
  return nullptr;
}

void Datapath::serve_dirty_peers(TimePoint t) {
  // Repeats while forwarding between tunnels marks further peers dirty.
  for (bool again = true; again;) {
    again = false;
    for (std::size_t i = 0; i < peers_.size(); ++i) {
      if (peers_[i].dirty) {
        serve_peer(i, t);
        again = true;
      }
    }
  }
  for (auto* port : ports_) port->flush();
  if (handoff_) handoff_->flush();
}

void Datapath::serve_peer(std::size_t index, TimePoint t) {
  PeerRuntime& peer = peers_[index];
  peer.dirty = false;
  drain_deliveries(peer, t);
  drain_transmits(peer, t);
  peer.port->flush();
  update_deadline(index);
}

void Datapath::update_deadline(std::size_t index) {
  PeerRuntime& peer = peers_[index];
  const auto deadline = peer.core->next_deadline();
  if (deadline == peer.armed_deadline) return;
  peer.armed_deadline = deadline;
  deadlines_->deadline_changed(index, deadline);
}

void Datapath::drain_deliveries(PeerRuntime& peer, TimePoint t) {
  while (auto n = peer.core->poll_deliver(packet_buf_)) deliver(peer, {packet_buf_.data(), *n}, t);
  flush_tun();
}

void Datapath::deliver(PeerRuntime& from, std::span<std::uint8_t> packet, TimePoint t) {
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

void Datapath::send_to_peer(PeerRuntime& peer, std::span<const std::uint8_t> packet, TimePoint t) {
  if (!peer.core) {   // another worker serves it; that one admits and counts
    ++counters_.handed_over;
    if (!handoff_->hand_over(static_cast<std::size_t>(&peer - peers_.data()), packet)) ++counters_.drop_handoff;
    return;
  }
  if (!admit(peer, packet, t)) return;
  const transport::SendResult r = peer.core->send(packet, t);
  if (r != transport::SendResult::accepted) ++peer.counters.send_refused;
  if (r == transport::SendResult::too_big) answer_too_big(peer, packet, t);
  peer.dirty = true;
}

void Datapath::answer_too_big(PeerRuntime& peer, std::span<const std::uint8_t> packet, TimePoint t) {
  ++peer.counters.too_big;
  // An ICMP error is never about an ICMP error, so the answer cannot come back here about itself.
  const ForwardDecision d = forwarder_.too_big(packet, peer.core->max_payload());
  if (d.action == ForwardAction::no_answer) return;
  ++counters_.icmp_too_big_sent;
  if (d.action == ForwardAction::answer_tun) return write_tun(forwarder_.answer());
  send_to_peer(peers_[d.peer], forwarder_.answer(), t);
}

void Datapath::write_tun_data(std::span<const std::uint8_t> packet) {
  if (!coalescer_) return write_tun(packet);
  if (coalescer_->add(packet)) return;
  flush_tun();
  if (!coalescer_->add(packet)) write_tun(packet);
}

void Datapath::flush_tun() {
  if (!coalescer_ || coalescer_->empty()) return;
  const std::size_t segments = coalescer_->segments();
  const auto frame = coalescer_->frame();
  coalescer_->clear();
  if (tun_->write_frame({}, frame) < 0) {
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

void Datapath::write_tun(std::span<const std::uint8_t> packet) {
  flush_tun();   // what was delivered before this packet is written before it
  // With offloads on every write starts with a virtio_net_hdr: no GSO, checksums complete.
  const std::span<const std::uint8_t> head =
      splitter_ ? std::span<const std::uint8_t>(kPlainVnetHeader) : std::span<const std::uint8_t>{};
  if (tun_->write_frame(head, packet) < 0) {
    ++counters_.tun_write_errors;
    return;
  }
  ++counters_.tun_tx_packets;
  counters_.tun_tx_bytes += packet.size();
}

void Datapath::drain_transmits(PeerRuntime& peer, TimePoint t) {
  std::array<std::span<std::uint8_t>, transport::kMaxBatch> slots;
  std::array<std::size_t, transport::kMaxBatch> lengths;
  for (;;) {
    const std::size_t free = peer.port->send_slots(slots);
    const std::size_t n = peer.core->poll_transmits(std::span(slots).first(free), lengths, t);
    if (n == 0) break;
    peer.port->commit_sends(std::span(lengths).first(n), peer.address);
    peer.counters.datagrams_out += n;
    if (n < free) break;   // the core has nothing more to send now
  }
}

bool Datapath::admit(PeerRuntime& peer, std::span<const std::uint8_t> packet, TimePoint t) {
  if (!peer.fudp || peer.fudp->on_packet(packet, t)) return true;
  ++peer.counters.fudp_dropped;
  return false;
}

}  // namespace ncgw::gateway
