// UdpPort over loopback: runs of equal-size datagrams to one address leave as GSO sends, a GRO
// receiver hands them back one by one, in order, with their sender; mixed sizes and destinations
// split into the right runs; without offloads (UDT's port) nothing is merged either way. Waits for datagrams with poll() (a guard against a hang, not a timing
// assertion).
#include <poll.h>

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "config/prefix.h"
#include "gateway/udp_port.h"

namespace ncgw::gateway {
namespace {

config::IpAddress loopback() { return *config::parse_ip("127.0.0.1"); }

// The bound address of `port`, for sending to it.
SocketAddress address_of(const UdpPort& port) {
  SocketAddress a;
  a.length = sizeof a.storage;
  getsockname(port.fd(), reinterpret_cast<sockaddr*>(&a.storage), &a.length);
  return a;
}

// Queues a datagram of `size` bytes whose every byte is `tag`.
void queue(UdpPort& from, const SocketAddress& to, std::size_t size, std::uint8_t tag) {
  auto slot = from.send_slot();
  std::memset(slot.data(), tag, size);
  from.commit_send(size, to);
}

// A received datagram: its size and first byte.
struct Got {
  std::size_t size;
  std::uint8_t tag;
  bool operator==(const Got&) const = default;
};

// Receives until `want` datagrams arrived (or 5 s pass without one).
std::vector<Got> receive(UdpPort& port, std::size_t want, const SocketAddress& from) {
  std::vector<Got> got;
  while (got.size() < want) {
    pollfd p{port.fd(), POLLIN, 0};
    if (poll(&p, 1, 5000) <= 0) break;
    for (std::size_t n = port.receive_batch(), i = 0; i < n; ++i) {
      const auto d = port.received(i);
      EXPECT_TRUE(port.sender(i).same_endpoint(from));
      bool uniform = true;
      for (auto b : d) uniform = uniform && b == d[0];
      EXPECT_TRUE(uniform) << "datagram " << got.size() << " mixes bytes of two datagrams";
      got.push_back({d.size(), d.empty() ? std::uint8_t{0} : d[0]});
    }
  }
  return got;
}

TEST(UdpPort, ARunOfEqualDatagramsLeavesAsGsoAndArrivesOneByOne) {
  UdpPort sender(loopback(), 0, UdpOffloads::both), receiver(loopback(), 0, UdpOffloads::both);
  std::vector<Got> sent;
  for (std::uint8_t i = 0; i < 40; ++i) sent.push_back({1200, i});
  sent.push_back({300, 40});   // a shorter last one joins the run
  for (const auto& g : sent) queue(sender, address_of(receiver), g.size, g.tag);
  EXPECT_EQ(sender.flush(), 0u);
  EXPECT_EQ(receive(receiver, sent.size(), address_of(sender)), sent);
  EXPECT_EQ(sender.batches().datagrams_sent, sent.size());
  if (sender.gso()) {   // else the kernel refused GSO (and the datagrams went one by one)
    EXPECT_GE(sender.batches().gso_sends, 1u);
  }
  if (sender.gso() && receiver.gro()) {
    EXPECT_GE(receiver.batches().gro_receives, 1u);
  }
  EXPECT_EQ(receiver.batches().datagrams_received, sent.size());
}

TEST(UdpPort, MixedSizesAndDestinationsKeepTheirOrder) {
  UdpPort sender(loopback(), 0, UdpOffloads::both), a(loopback(), 0, UdpOffloads::both),
      b(loopback(), 0, UdpOffloads::none);
  std::vector<Got> to_a, to_b;
  const std::size_t sizes[] = {500, 500, 500, 200, 500, 500, 900, 900, 100, 100};
  std::uint8_t tag = 0;
  for (int round = 0; round < 5; ++round) {
    for (std::size_t s : sizes) {
      const bool for_a = (tag % 7) < 4;
      queue(sender, address_of(for_a ? a : b), s, tag);
      (for_a ? to_a : to_b).push_back({s, tag});
      ++tag;
    }
  }
  sender.flush();
  EXPECT_EQ(receive(a, to_a.size(), address_of(sender)), to_a);
  EXPECT_EQ(receive(b, to_b.size(), address_of(sender)), to_b);
}

TEST(UdpPort, WithoutOffloadsEveryDatagramIsItsOwnMessage) {
  UdpPort sender(loopback(), 0), receiver(loopback(), 0);
  EXPECT_FALSE(sender.gso());
  EXPECT_FALSE(receiver.gro());
  std::vector<Got> sent;
  for (std::uint8_t i = 0; i < 20; ++i) {
    sent.push_back({1000, i});
    queue(sender, address_of(receiver), 1000, i);
  }
  sender.flush();
  EXPECT_EQ(receive(receiver, sent.size(), address_of(sender)), sent);
  EXPECT_EQ(sender.batches().gso_sends, 0u);
  EXPECT_EQ(receiver.batches().gro_receives, 0u);
}

TEST(UdpPort, AFullBatchFlushesOnItsOwn) {
  UdpPort sender(loopback(), 0, UdpOffloads::both), receiver(loopback(), 0, UdpOffloads::both);
  std::vector<Got> sent;
  for (std::size_t i = 0; i < kBatch + 10; ++i) {
    sent.push_back({800, static_cast<std::uint8_t>(i)});
    queue(sender, address_of(receiver), 800, static_cast<std::uint8_t>(i));
  }
  sender.flush();
  EXPECT_EQ(receive(receiver, sent.size(), address_of(sender)), sent);
}

// A port bound to port 0 reports the port the kernel chose; a port that holds datagrams for a
// full socket buffer (the UDT tool's) sends like any other while there is room, in order.
// (The hold path itself needs a socket buffer that stays full, which loopback never gives: the
// kernel frees a datagram's buffer as soon as it reaches the receiving socket. It is tested in a
// network namespace of its own: tests/netns/gateway/udp_port_hold_test.cc.)
TEST(UdpPort, BindsAnyPortAndHoldingPortsSendInOrder) {
  const SocketAddress any = SocketAddress::from(loopback(), 0);
  UdpPort sender(any, UdpOffloads::none, WhenBlocked::hold), receiver(any, UdpOffloads::none);
  EXPECT_NE(sender.local_port(), 0);
  EXPECT_EQ(sender.local_port(), address_of(sender).port());
  EXPECT_EQ(receiver.local_name(), "127.0.0.1:" + std::to_string(receiver.local_port()));
  const SocketAddress to = address_of(receiver);
  for (std::uint8_t i = 0; i < 100; ++i) queue(sender, to, 100 + i, i);  // more than one batch
  EXPECT_EQ(sender.flush(), 0u);
  EXPECT_FALSE(sender.blocked());
  const auto got = receive(receiver, 100, address_of(sender));
  ASSERT_EQ(got.size(), 100u);
  for (std::uint8_t i = 0; i < 100; ++i) EXPECT_EQ(got[i], (Got{100u + i, i}));
}

// When the kernel refuses a GSO send, the port turns GSO off and sends the same datagrams one by
// one, in order, none counted as an error. The refusal here is the kernel's own: a socket without
// UDP checksums (SO_NO_CHECK) cannot segment (EINVAL), as a device without checksum offload
// cannot (EIO).
TEST(UdpPort, ARefusedGsoSendFallsBackToSingleDatagrams) {
  UdpPort sender(loopback(), 0, UdpOffloads::both), receiver(loopback(), 0);
  const int on = 1;
  ASSERT_EQ(setsockopt(sender.fd(), SOL_SOCKET, SO_NO_CHECK, &on, sizeof on), 0);
  ASSERT_TRUE(sender.gso());
  std::vector<Got> sent;
  for (std::uint8_t i = 0; i < 40; ++i) {  // one GSO run if the kernel took it
    sent.push_back({1200, i});
    queue(sender, address_of(receiver), 1200, i);
  }
  EXPECT_EQ(sender.flush(), 0u);
  EXPECT_FALSE(sender.gso());
  EXPECT_EQ(sender.batches().gso_sends, 0u);
  EXPECT_EQ(sender.send_errors(), 0u);
  EXPECT_EQ(receive(receiver, sent.size(), address_of(sender)), sent);
  queue(sender, address_of(receiver), 1200, 99);  // later runs go datagram by datagram from the start
  queue(sender, address_of(receiver), 1200, 98);
  EXPECT_EQ(sender.flush(), 0u);
  EXPECT_EQ(receive(receiver, 2, address_of(sender)), (std::vector<Got>{{1200, 99}, {1200, 98}}));
}

}  // namespace
}  // namespace ncgw::gateway
