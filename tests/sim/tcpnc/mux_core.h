// Several transport cores behind one simulated endpoint, so that their datagrams share the
// simulation's links and bottleneck (two tunnels through one path): each datagram carries a
// one-byte core index in front; each inner core has its own saturating source, started at its own
// time, and its own checking sink (no duplicates, no reordering; gaps from entrance drops allowed).
// Test code only.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "tests/sim/common/traffic.h"
#include "transports/common/core.h"
#include "transports/common/earliest.h"

namespace ncgw::sim {

// One simulated endpoint that multiplexes inner cores.
class MuxCore : public transport::Core {
 public:
  // The inner cores (their max_datagram must leave one byte for the index).
  explicit MuxCore(std::vector<std::unique_ptr<transport::Core>> cores) : cores_(std::move(cores)) {
    sinks_.resize(cores_.size());
    delivered_.resize(cores_.size());
    for (auto& s : sinks_) {
      s = std::make_unique<Sink>();
      s->set_allow_gaps(true);  // an entrance AQM may drop what a saturating source forces in
    }
  }
  // Gives inner core `i` a saturating source of `size`-byte packets from time `start` on.
  void add_source(std::size_t i, std::size_t size, TimePoint start) {
    sources_.push_back({i, std::make_unique<BulkSource>(size, static_cast<std::uint32_t>(i + 1)), start});
  }

  void on_datagram(std::span<const std::uint8_t> bytes, TimePoint now) override {
    if (bytes.empty() || bytes[0] >= cores_.size()) return;
    cores_[bytes[0]]->on_datagram(bytes.subspan(1), now);
  }
  void on_timeout(TimePoint now) override {
    last_now_ = now;
    for (auto& c : cores_)
      if (auto d = c->next_deadline(); d && *d <= now) c->on_timeout(now);
  }
  transport::SendResult send(std::span<const std::uint8_t>, TimePoint) override {
    return transport::SendResult::not_connected;  // traffic comes from the inner sources
  }
  std::optional<std::size_t> poll_transmit(std::span<std::uint8_t> out, TimePoint now) override {
    last_now_ = now;
    for (auto& s : sources_)
      if (now >= s.start) s.source->pump(*cores_[s.core], now);
    for (std::size_t k = 0; k < cores_.size(); ++k) {  // round robin over the inner cores
      const std::size_t i = (next_ + k) % cores_.size();
      if (auto n = cores_[i]->poll_transmit(out.subspan(1), now)) {
        out[0] = static_cast<std::uint8_t>(i);
        next_ = i + 1;
        return *n + 1;
      }
    }
    return std::nullopt;
  }
  // Drains every inner core into its own sink; nothing reaches the simulation's sink.
  std::optional<std::size_t> poll_deliver(std::span<std::uint8_t> out) override {
    for (std::size_t i = 0; i < cores_.size(); ++i)
      while (auto n = cores_[i]->poll_deliver(out)) {
        sinks_[i]->receive(out.first(*n), TimePoint{});
        delivered_[i] += *n;
      }
    return std::nullopt;
  }
  std::optional<TimePoint> next_deadline() const override {
    transport::Earliest t;
    for (const auto& c : cores_) t.offer(c->next_deadline());
    for (const auto& s : sources_)
      if (s.start > last_now_) t.offer(s.start);
    return t.get();
  }
  std::size_t max_payload() const override { return cores_[0]->max_payload(); }
  std::vector<transport::StatEntry> stats() const override { return cores_[0]->stats(); }

  // Bytes inner core `i` delivered so far.
  std::uint64_t delivered(std::size_t i) const { return delivered_[i]; }
  // The checking sink of inner core `i`.
  const Sink& sink(std::size_t i) const { return *sinks_[i]; }
  // Inner core `i`.
  transport::Core& core(std::size_t i) { return *cores_[i]; }

 private:
  // A source feeding one inner core from a start time on.
  struct Feed {
    std::size_t core;
    std::unique_ptr<BulkSource> source;
    TimePoint start;
  };
  std::vector<std::unique_ptr<transport::Core>> cores_;
  std::vector<std::unique_ptr<Sink>> sinks_;
  std::vector<std::uint64_t> delivered_;
  std::vector<Feed> sources_;
  std::size_t next_ = 0;
  TimePoint last_now_{};
};

}  // namespace ncgw::sim
