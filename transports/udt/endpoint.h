// Many UDT connections multiplexed on one UDP port by socket id, as the library's CRcvQueue does:
// handshakes to id 0 go to the listener (SYN cookie) or to a rendezvous connector by peer address,
// everything else to the connection with that id. Sans-I/O: the driver passes the peer address
// with each datagram and gets one with each datagram to send.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "transports/common/rng.h"
#include "transports/udt/connection.h"

namespace ncgw::udt {

// A datagram to send: its size in the caller's buffer and where it goes.
struct Transmit {
  std::size_t size = 0;
  PeerAddress to;
};

class Endpoint {
 public:
  // An endpoint whose socket ids, sequence numbers and cookie secret come from `seed`.
  explicit Endpoint(std::uint64_t seed);

  // Accepts incoming caller handshakes with these settings (type must match the caller's).
  void listen(const ConnectionSettings& s, std::size_t backlog = 1024);
  // Stops accepting new connections.
  void stop_listening() { listening_ = false; }
  // Starts a caller connection; returns its socket id.
  std::int32_t connect(const PeerAddress& peer, const ConnectionSettings& s, TimePoint now);
  // Starts a rendezvous connection; returns its socket id.
  std::int32_t rendezvous(const PeerAddress& peer, const ConnectionSettings& s, TimePoint now);
  // The next connection the listener accepted, if any.
  std::optional<std::int32_t> accept();
  // The connection with socket id `id`, or null.
  Connection* find(std::int32_t id);
  const Connection* find(std::int32_t id) const;
  // Forgets a connection (after close or failure).
  void remove(std::int32_t id);
  // Number of connections held.
  std::size_t size() const { return conns_.size(); }

  // A UDP payload arrived from `from`.
  void on_datagram(std::span<const std::uint8_t> bytes, const PeerAddress& from, TimePoint now);
  // Runs the timers of every connection.
  void on_timeout(TimePoint now);
  // The next datagram to send (round robin over connections), written into `out`.
  std::optional<Transmit> poll_transmit(std::span<std::uint8_t> out, TimePoint now);
  // The earliest deadline of any connection.
  std::optional<TimePoint> next_deadline() const;
  // Datagrams ignored (unknown socket id, wrong address, malformed, bad cookie).
  std::uint64_t ignored() const { return ignored_; }

 private:
  void on_listener_handshake(const Packet& p, const PeerAddress& from, TimePoint now);
  std::int32_t cookie(const PeerAddress& from, std::int64_t bucket) const;
  std::int32_t new_id();
  Connection* add(const ConnectionSettings& s, TimePoint now);
  Connection* find_by_peer(const PeerAddress& from, std::int32_t peer_id);
  void queue_reply(const PeerAddress& to, const Handshake& h, std::uint32_t dest);

  // A handshake reply that belongs to no connection (cookie, rejection).
  struct Reply {
    PeerAddress to;
    std::array<std::uint8_t, 64> bytes{};
    std::size_t len = 0;
  };

  transport::Rng rng_;
  std::uint64_t secret_;
  std::int32_t next_id_;
  std::unordered_map<std::int32_t, std::unique_ptr<Connection>> conns_;
  std::vector<Connection*> order_;  // round-robin order
  std::size_t rr_ = 0;
  std::deque<std::int32_t> accepted_;
  std::array<Reply, 32> replies_{};
  std::size_t reply_head_ = 0, reply_count_ = 0;
  bool listening_ = false;
  ConnectionSettings listen_settings_;
  std::size_t backlog_ = 1024;
  std::uint64_t ignored_ = 0;
};

}  // namespace ncgw::udt
