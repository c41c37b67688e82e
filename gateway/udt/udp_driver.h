// A socket loop around a UDT Endpoint (for the ncgw-udt tool, interop tests and benchmarks): the
// daemon's own UDP port (gateway/udp_port.h: batched recvmmsg/sendmmsg, kernel arrival times,
// datagrams held rather than dropped when the socket buffer is full), ppoll with nanosecond
// deadlines from the endpoint, the steady clock as core time. The protocol stays in transports/udt.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <span>

#include "gateway/udp_port.h"
#include "transports/udt/endpoint.h"

namespace ncgw::udt {

class UdpDriver {
 public:
  // Binds a UDP socket to `bind` (port 0: any) for `ep`; throws std::system_error on failure.
  UdpDriver(Endpoint& ep, const PeerAddress& bind);
  UdpDriver(const UdpDriver&) = delete;
  UdpDriver& operator=(const UdpDriver&) = delete;

  // The bound local port.
  std::uint16_t local_port() const { return port_.local_port(); }
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
  std::uint64_t sent() const { return port_.batches().datagrams_sent; }
  std::uint64_t received() const { return port_.batches().datagrams_received; }

 private:
  void receive_all(TimePoint now);
  // Hands what the endpoint has to send to the port; false if the socket buffer is full.
  bool transmit_all(TimePoint now);
  void wait(TimePoint now, int extra_fd, bool want_write);

  Endpoint& ep_;
  gateway::UdpPort port_;
  ReceiveFilter receive_filter_;
};

}  // namespace ncgw::udt
