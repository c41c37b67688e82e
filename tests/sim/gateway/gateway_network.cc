#include "tests/sim/gateway/gateway_network.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <variant>

#include "config/loader.h"
#include "config/prefix.h"
#include "gateway/icmp.h"
#include "transports/common/rng.h"

namespace ncgw::sim {

namespace {

// Seeded random bytes in place of getrandom(2).
std::function<void(std::span<std::uint8_t>)> seeded_bytes(std::uint64_t seed) {
  auto rng = std::make_shared<transport::Rng>(seed);
  return [rng](std::span<std::uint8_t> out) {
    for (auto& b : out) b = static_cast<std::uint8_t>(rng->next());
  };
}

}  // namespace

GatewayNetwork::GatewayNetwork(std::uint64_t seed) : seed_(seed) {
  std::printf("[gateway-sim] seed %llu\n", static_cast<unsigned long long>(seed));
}

std::uint64_t GatewayNetwork::seed_for(std::uint64_t salt) const {
  std::uint64_t s = seed_ ^ (salt * 0x9E3779B97F4A7C15ULL);
  return transport::splitmix64(s);
}

std::size_t GatewayNetwork::add_gateway(const std::string& yaml, const std::string& underlay,
                                        std::vector<std::optional<gateway::PeerKeys>> keys, bool vnet) {
  auto loaded = config::load_config_string(yaml, "gw" + std::to_string(gateways_.size() + 1) + ".yaml");
  if (const auto* e = std::get_if<config::ConfigError>(&loaded)) ADD_FAILURE() << config::format_error(*e);
  auto g = std::make_unique<SimGateway>();
  g->cfg = std::get<config::GatewayConfig>(std::move(loaded));
  g->underlay = *config::parse_ip(underlay);
  // Bound to its own address, as the simulated ports are: endpoint-derived ids (the UDT role, the
  // plain session id) then come from the simulated addresses, not from this machine's routes.
  if (g->cfg.listen.address == "0.0.0.0") g->cfg.listen.address = underlay;
  g->tun = std::make_unique<MemoryTun>(vnet);
  // Wall clock at core time 0: a fixed date, so records and cookies replay exactly.
  const gateway::CoreHost host{seeded_bytes(seed_for(1000 + gateways_.size())), 1'790'000'000'000'000'000};
  g->datapath = std::make_unique<gateway::Datapath>(g->cfg, std::move(keys), host, now_);
  std::vector<gateway::DatagramPort*> port_of_peer;
  for (const auto& peer : g->datapath->peers()) {
    const auto local = gateway::SocketAddress::from(g->underlay, gateway::listen_port(g->cfg, peer.cfg->transport));
    auto same = std::find_if(g->ports.begin(), g->ports.end(),
                             [&](const auto& p) { return p->local().same_endpoint(local); });
    if (same == g->ports.end()) {
      g->ports.push_back(std::make_unique<MemoryPort>(local));
      same = g->ports.end() - 1;
    }
    port_of_peer.push_back(same->get());
  }
  g->deadlines.resize(g->datapath->peers().size());
  g->datapath->attach(*g->tun, port_of_peer, *g);
  gateways_.push_back(std::move(g));
  return gateways_.size() - 1;
}

Link& GatewayNetwork::link(std::size_t from, std::size_t to) { return links_[{from, to}]; }

void GatewayNetwork::start() {
  for (auto& g : gateways_) g->datapath->serve_all(now_);
  collect_sent(now_);
}

void GatewayNetwork::inject_at(std::size_t g, TimePoint at, std::vector<std::uint8_t> packet) {
  Scheduled s{at, g, std::move(packet), std::nullopt};
  const auto pos = std::upper_bound(scheduled_.begin(), scheduled_.end(), at,
                                    [](TimePoint t, const Scheduled& x) { return t < x.at; });
  scheduled_.insert(pos, std::move(s));
}

void GatewayNetwork::datagram_at(std::size_t g, TimePoint at, std::vector<std::uint8_t> bytes,
                                 const gateway::SocketAddress& from) {
  Scheduled s{at, g, std::move(bytes), from};
  const auto pos = std::upper_bound(scheduled_.begin(), scheduled_.end(), at,
                                    [](TimePoint t, const Scheduled& x) { return t < x.at; });
  scheduled_.insert(pos, std::move(s));
}

std::optional<TimePoint> GatewayNetwork::next_event() const {
  std::optional<TimePoint> next;
  auto consider = [&](std::optional<TimePoint> t) {
    if (t && (!next || *t < *next)) next = t;
  };
  for (const auto& [key, l] : links_) consider(l.next_arrival());
  for (const auto& g : gateways_) {
    for (const auto& d : g->deadlines) consider(d);
  }
  if (!scheduled_.empty()) consider(scheduled_.front().at);
  return next;
}

bool GatewayNetwork::run_until(const std::function<bool()>& pred, TimePoint deadline) {
  while (!pred()) {
    const auto next = next_event();
    if (!next || *next > deadline) {
      now_ = deadline;
      return pred();
    }
    step(std::max(*next, now_));
  }
  return true;
}

void GatewayNetwork::step(TimePoint t) {
  now_ = t;
  deliver_arrivals(t);
  run_scheduled(t);
  run_deadlines(t);
  collect_sent(t);
}

void GatewayNetwork::deliver_arrivals(TimePoint t) {
  for (auto& [key, l] : links_) {
    const auto& [from, to] = key;
    while (auto p = l.pop_arrival(t)) {
      if (p->bytes.size() < 2) continue;
      const auto& sender = gateways_[from]->ports.at(p->bytes[0])->local();
      gateways_[to]->ports.at(p->bytes[1])->arrive({p->bytes.data() + 2, p->bytes.size() - 2}, sender);
    }
  }
  for (auto& g : gateways_) {
    for (auto& port : g->ports) {
      while (port->waiting() > 0) g->datapath->on_port_readable(*port, t, 0);
    }
  }
}

void GatewayNetwork::run_scheduled(TimePoint t) {
  while (!scheduled_.empty() && scheduled_.front().at <= t) {
    Scheduled s = std::move(scheduled_.front());
    scheduled_.erase(scheduled_.begin());
    SimGateway& g = *gateways_[s.gateway];
    if (s.from) {
      g.ports.front()->arrive(s.bytes, *s.from);
      g.datapath->on_port_readable(*g.ports.front(), t, 0);
    } else {
      g.tun->inject(s.bytes);
      while (g.tun->pending() > 0) g.datapath->on_tun_readable(t);
    }
  }
}

void GatewayNetwork::run_deadlines(TimePoint t) {
  for (auto& g : gateways_) {
    for (std::size_t i = 0; i < g->deadlines.size(); ++i) {
      if (!g->deadlines[i] || *g->deadlines[i] > t) continue;
      g->deadlines[i].reset();
      g->datapath->on_timeout(i, t);
    }
  }
}

std::optional<std::pair<std::size_t, std::size_t>> GatewayNetwork::find_port(const gateway::SocketAddress& to) const {
  for (std::size_t g = 0; g < gateways_.size(); ++g) {
    for (std::size_t p = 0; p < gateways_[g]->ports.size(); ++p) {
      if (gateways_[g]->ports[p]->local().same_endpoint(to)) return std::pair{g, p};
    }
  }
  return std::nullopt;
}

void GatewayNetwork::collect_sent(TimePoint t) {
  for (std::size_t g = 0; g < gateways_.size(); ++g) {
    for (std::size_t p = 0; p < gateways_[g]->ports.size(); ++p) {
      for (auto& d : gateways_[g]->ports[p]->take_sent()) {
        const auto dest = find_port(d.to);
        if (!dest) {
          ++undeliverable_;
          continue;
        }
        const std::uint8_t route[2] = {static_cast<std::uint8_t>(p), static_cast<std::uint8_t>(dest->second)};
        d.bytes.insert(d.bytes.begin(), route, route + 2);
        link(g, dest->first).push(d.bytes, t);
      }
    }
  }
}

std::vector<std::uint8_t> inner_udp(const std::string& src, const std::string& dst, std::uint64_t seq,
                                    std::size_t size, std::uint8_t ttl) {
  std::vector<std::uint8_t> p(std::max<std::size_t>(size, 36), 0);
  const auto s = *config::parse_ip(src);
  const auto d = *config::parse_ip(dst);
  p[0] = 0x45;
  p[2] = static_cast<std::uint8_t>(p.size() >> 8);
  p[3] = static_cast<std::uint8_t>(p.size());
  p[6] = 0x40;   // DF
  p[8] = ttl;
  p[9] = 17;     // UDP
  std::copy(s.bytes.begin(), s.bytes.begin() + 4, p.begin() + 12);
  std::copy(d.bytes.begin(), d.bytes.begin() + 4, p.begin() + 16);
  const std::uint16_t sum = gateway::checksum_finish(gateway::checksum_add(0, {p.data(), 20}));
  p[10] = static_cast<std::uint8_t>(sum >> 8);
  p[11] = static_cast<std::uint8_t>(sum);
  const std::size_t udp = p.size() - 20;
  p[20] = 0x30; p[21] = 0x39;   // ports 12345 -> 12346
  p[22] = 0x30; p[23] = 0x3a;
  p[24] = static_cast<std::uint8_t>(udp >> 8);
  p[25] = static_cast<std::uint8_t>(udp);
  for (int i = 0; i < 8; ++i) p[28 + i] = static_cast<std::uint8_t>(seq >> (56 - 8 * i));
  for (std::size_t i = 36; i < p.size(); ++i) p[i] = static_cast<std::uint8_t>(seq * 31 + i);
  return p;
}

std::optional<std::uint64_t> inner_seq(std::span<const std::uint8_t> packet) {
  if (packet.size() < 36 || packet[0] != 0x45 || packet[9] != 17) return std::nullopt;
  std::uint64_t seq = 0;
  for (int i = 0; i < 8; ++i) seq = (seq << 8) | packet[28 + static_cast<std::size_t>(i)];
  for (std::size_t i = 36; i < packet.size(); ++i) {
    if (packet[i] != static_cast<std::uint8_t>(seq * 31 + i)) return std::nullopt;
  }
  return seq;
}

}  // namespace ncgw::sim
