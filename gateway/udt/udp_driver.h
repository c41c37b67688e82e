// A plain UDP socket loop around a UDT Endpoint (for the ncgw-udt tool, interop tests and
// benchmarks): nonblocking socket, batched recvmmsg/sendmmsg, ppoll with nanosecond deadlines from
// the endpoint, the steady clock as core time. The protocol stays in transports/udt.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "transports/udt/endpoint.h"

namespace ncgw::udt {

class UdpDriver {
 public:
  // Binds a UDP socket to `bind` (port 0: any) for `ep`; throws std::runtime_error on failure.
  UdpDriver(Endpoint& ep, const PeerAddress& bind);
  ~UdpDriver();
  UdpDriver(const UdpDriver&) = delete;
  UdpDriver& operator=(const UdpDriver&) = delete;

  // The bound local port.
  std::uint16_t local_port() const { return port_; }
  // Core time now (steady clock).
  static TimePoint now();
  // Runs the loop, calling step(now) every iteration, until step returns true or `timeout` passes;
  // returns step's last answer. `input_fd`, if given, names a descriptor that also wakes the loop
  // when readable, asked anew each iteration (-1: none now, e.g. while the send buffer is full, so a
  // readable stdin that nobody reads does not spin the loop).
  bool run(const std::function<bool(TimePoint)>& step, std::chrono::nanoseconds timeout,
           const std::function<int()>& input_fd = {});
  // Test hook (interop tests emulate loss with it): a received datagram for which `drop(bytes, at)`
  // returns true is discarded before the endpoint sees it. Empty (the default): none is.
  using ReceiveFilter = std::function<bool(std::span<const std::uint8_t>, TimePoint)>;
  void set_receive_filter(ReceiveFilter drop) { receive_filter_ = std::move(drop); }
  // Datagrams sent and received so far.
  std::uint64_t sent() const { return sent_; }
  std::uint64_t received() const { return received_; }

 private:
  void receive_all(TimePoint now);
  bool transmit_all(TimePoint now);
  void wait(TimePoint now, int extra_fd, bool want_write);

  Endpoint& ep_;
  int fd_ = -1;
  std::uint16_t port_ = 0;
  bool v6_ = false;
  std::vector<std::uint8_t> rx_;
  std::vector<std::uint8_t> tx_;
  std::uint64_t sent_ = 0, received_ = 0;
  ReceiveFilter receive_filter_;
  // a datagram that met EAGAIN, sent first next time
  std::size_t pending_len_ = 0;
  PeerAddress pending_to_;
};

}  // namespace ncgw::udt
