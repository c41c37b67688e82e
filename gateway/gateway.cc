#include "gateway/gateway.h"

#include <pthread.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>

#include "config/loader.h"
#include "gateway/control_server.h"
#include "gateway/core_factory.h"
#include "gateway/peer_keys.h"
#include "gateway/status_json.h"

namespace ncgw::gateway {

namespace asio = boost::asio;

namespace {

// The keys of the peers worker `w` serves (the others' entries empty).
std::vector<std::optional<PeerKeys>> keys_for(const std::vector<std::optional<PeerKeys>>& all,
                                              const WorkerPlacement& placement) {
  std::vector<std::optional<PeerKeys>> out(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (placement.worker_of_peer[i] == placement.index) out[i] = all[i];
  }
  return out;
}

// How long a status read waits for the other workers to pause.
constexpr auto kPauseTimeout = std::chrono::seconds(2);

// The workers paused for a status read: each waits in a handler on its own loop until released.
struct PauseState {
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t paused = 0;
  bool released = false;
};

}  // namespace

Gateway::Gateway(asio::io_context& io, const config::GatewayConfig& cfg)
    : io_(io), cfg_(cfg), epoch_(std::chrono::steady_clock::now()) {
  const std::size_t count = worker_count(cfg_);
  const std::uint32_t mtu = choose_mtu();
  // Handed-over packets are IP packets read from the TUN or delivered by a peer: at most the MTU.
  if (count > 1) mesh_ = std::make_unique<HandoffMesh>(count, std::max<std::size_t>(mtu, kMinHandoffSlot));
  running_ = std::make_unique<std::atomic<bool>[]>(count);
  std::vector<std::optional<PeerKeys>> keys = load_peer_keys(cfg_);
  // first: a core that cannot be built fails before we touch the system
  for (std::size_t w = 0; w < count; ++w) {
    if (w > 0) ios_.push_back(std::make_unique<asio::io_context>(1));
    const WorkerPlacement placement = place_peers(w, count, cfg_.peers.size());
    workers_.push_back(std::make_unique<Worker>(w == 0 ? io_ : *ios_.back(), cfg_, keys_for(keys, placement),
                                                placement, mesh_.get(), epoch_));
  }
  for (auto& k : keys) {
    if (k) crypto::wipe(k->local_private);
  }
  tun_ = std::make_unique<TunDevice>(cfg_.tun, mtu, count);
  for (std::size_t w = 0; w < count; ++w) {
    TunQueue& q = tun_->queue(std::min(w, tun_->queues() - 1));
    workers_[w]->attach(w == 0 ? static_cast<TunIo&>(*tun_) : q, q.fd(), w < tun_->queues());
  }
  install_routes();
  control_ = std::make_unique<ControlServer>(io_, cfg_, [this] { return status_json(); });
  spdlog::info("gateway {}: tun {} mtu {} ({}, offloads {}, {} queue(s)), {} peer(s), {} worker(s), {} route(s), "
               "control {}",
               cfg_.name, tun_->name(), mtu, tun_->created() ? "created" : "attached", tun_->offload_state(),
               tun_->queues(), cfg_.peers.size(), count, cfg_.routes.size(), control_->path());
}

Gateway::~Gateway() { stop(); }

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
  for (auto& w : workers_) w->start();
  control_->start();
  running_[0] = true;
  for (std::size_t w = 1; w < workers_.size(); ++w) {
    running_[w] = true;
    threads_.emplace_back([this, w] { run_worker(w); });
  }
}

void Gateway::run_worker(std::size_t w) {
  // Signals go to the main thread, whose loop handles them.
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  try {
    ios_[w - 1]->run();
  } catch (const std::exception& e) {
    spdlog::critical("gateway {}: worker {}: unexpected error, shutting down: {}", cfg_.name, w, e.what());
    running_[w] = false;
    ::kill(::getpid(), SIGTERM);
    return;
  }
  running_[w] = false;
}

void Gateway::stop() {
  if (stopped_) return;
  stopped_ = true;
  for (std::size_t w = 1; w < workers_.size(); ++w) {
    asio::post(*ios_[w - 1], [this, w] {
      workers_[w]->halt();
      ios_[w - 1]->stop();
    });
  }
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  for (auto& w : workers_) w->halt();   // worker 0's, and any whose thread had ended
  running_[0] = false;
  if (control_) control_->stop();
  spdlog::info("gateway {} stopping; final counters: {}", cfg_.name, status_json());
  for (auto& w : workers_) w->release();
  if (policy_) policy_->close();
  if (tun_) tun_->close();
}

std::string Gateway::status_json() const {
  std::size_t others = 0;
  for (std::size_t w = 1; w < workers_.size(); ++w) others += running_[w] ? 1 : 0;
  if (others == 0) return render_status();
  auto state = std::make_shared<PauseState>();
  for (std::size_t w = 1; w < workers_.size(); ++w) {
    if (!running_[w]) continue;
    asio::post(*ios_[w - 1], [state] {
      std::unique_lock lock(state->mutex);
      ++state->paused;
      state->changed.notify_all();
      state->changed.wait(lock, [&] { return state->released; });
    });
  }
  std::unique_lock lock(state->mutex);
  const bool all_paused = state->changed.wait_for(lock, kPauseTimeout, [&] { return state->paused == others; });
  std::string doc = all_paused ? render_status() : std::string(R"({"error": "a worker did not answer"})");
  state->released = true;
  state->changed.notify_all();
  return doc;
}

std::string Gateway::render_status() const {
  GatewayCounters counters;
  std::vector<PeerCounters> peer_counters(cfg_.peers.size());
  std::vector<PeerStatusInput> peers(cfg_.peers.size());
  std::vector<PortStatusInput> ports;
  for (const auto& w : workers_) w->add_status(counters, peer_counters, peers, ports);
  StatusInput in{cfg_, counters, tun_.get(), std::chrono::steady_clock::now() - epoch_};
  in.workers = workers_.size();
  in.peers = std::move(peers);
  in.ports = std::move(ports);
  return render_status_json(in);
}

}  // namespace ncgw::gateway
