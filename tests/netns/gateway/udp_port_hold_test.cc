// UdpPort's hold mode (WhenBlocked::hold, what the ncgw-udt tool and the interop tests use): when
// the kernel cannot take a datagram (EAGAIN: the socket's send buffer is full), the port keeps it
// and everything after it, in order, and hands them over once the socket is writable again.
//
// Loopback never pushes back on its own (a datagram leaves the sender's buffer as soon as it is
// queued at the receiver), so this test moves itself into a new network namespace and puts a
// token bucket (tc tbf, 20 Mbit/s) on its lo: datagrams wait in the qdisc and keep the sender's
// small send buffer full. Needs root (CAP_SYS_ADMIN, CAP_NET_ADMIN); label netns.
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "config/prefix.h"
#include "gateway/udp_port.h"

namespace ncgw::gateway {
namespace {

constexpr std::uint32_t kDatagrams = 3000;
constexpr std::size_t kSize = 1200;

// The bound address of `port`, for sending to it.
SocketAddress address_of(const UdpPort& port) {
  SocketAddress a;
  a.length = sizeof a.storage;
  getsockname(port.fd(), reinterpret_cast<sockaddr*>(&a.storage), &a.length);
  return a;
}

// What the receiver saw: datagrams in order, out of order, and of the wrong size.
struct Received {
  std::uint32_t next = 0;      // the sequence number expected next
  std::uint32_t disorder = 0;  // datagrams that were not the one expected
  std::uint32_t bad_size = 0;
};

// Takes whatever waits at `rx` (without blocking).
void drain(UdpPort& rx, Received& r) {
  for (std::size_t n = rx.receive_batch(), i = 0; i < n; ++i) {
    const auto d = rx.received(i);
    if (d.size() != kSize) { ++r.bad_size; continue; }
    std::uint32_t seq;
    std::memcpy(&seq, d.data(), sizeof seq);
    if (seq != r.next) ++r.disorder;
    r.next = seq + 1;
  }
}

// Waits (at most 1 s: a guard against a hang, not a timing assertion) until `fd` is ready for `events`.
void wait_for(int fd, short events) {
  pollfd p{fd, events, 0};
  poll(&p, 1, 1000);
}

TEST(UdpPortHold, DatagramsTheKernelCannotTakeWaitAndLeaveInOrder) {
  if (unshare(CLONE_NEWNET) != 0) GTEST_SKIP() << "unshare(CLONE_NEWNET): " << std::strerror(errno) << " (needs root)";
  ASSERT_EQ(std::system("ip link set lo up && tc qdisc add dev lo root tbf rate 20mbit burst 16kb limit 8mb"), 0);

  const auto lo = *config::parse_ip("127.0.0.1");
  UdpPort rx(SocketAddress::from(lo, 0));
  UdpPort tx(SocketAddress::from(lo, 0), UdpOffloads::none, WhenBlocked::hold);
  const int small = 16384;  // the kernel doubles it: room for about a dozen datagrams
  ASSERT_EQ(setsockopt(tx.fd(), SOL_SOCKET, SO_SNDBUF, &small, sizeof small), 0);
  const SocketAddress to = address_of(rx);

  Received r;
  // times_held: commits after which the port held datagrams the kernel had refused (a full batch
  // is flushed by commit_send); slots_exhausted: every slot held one, so nothing could be queued.
  std::uint32_t committed = 0, times_held = 0, slots_exhausted = 0;
  while (committed < kDatagrams) {
    const auto slot = tx.send_slot();
    if (slot.empty()) {
      ++slots_exhausted;
      wait_for(tx.fd(), POLLOUT);
      tx.flush();
      drain(rx, r);
      continue;
    }
    std::memset(slot.data(), 0, kSize);
    std::memcpy(slot.data(), &committed, sizeof committed);
    tx.commit_send(kSize, to);
    ++committed;
    times_held += tx.blocked();
    drain(rx, r);
  }
  for (int guard = 0; guard < 10000 && (tx.flush(), tx.blocked()); ++guard) {
    wait_for(tx.fd(), POLLOUT);
    drain(rx, r);
  }
  EXPECT_FALSE(tx.blocked());
  for (int guard = 0; guard < 100 && r.next < kDatagrams; ++guard) {
    wait_for(rx.fd(), POLLIN);
    drain(rx, r);
  }

  std::printf("[udp-hold] %u datagrams, held after %u commits, send slots exhausted %u times, %llu sendmmsg calls, "
              "received up to %u\n",
              kDatagrams, times_held, slots_exhausted, static_cast<unsigned long long>(tx.batches().send_calls), r.next);
  EXPECT_GT(times_held, 0u) << "the send buffer never filled: the hold path was not exercised";
  EXPECT_EQ(tx.send_errors(), 0u);
  EXPECT_EQ(r.next, kDatagrams);
  EXPECT_EQ(r.disorder, 0u);
  EXPECT_EQ(r.bad_size, 0u);
  EXPECT_EQ(rx.receive_errors(), 0u);
}

}  // namespace
}  // namespace ncgw::gateway
