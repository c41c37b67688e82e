// Checks that the UDT tunnel's per-packet path does not allocate with parallel channels: sixteen
// inner flows over four channels both ways, with loss on the link (NAKs, retransmissions), carried
// through preallocated rings while a global operator new counts allocations.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "tests/unit/common/alloc_counter.h"
#include "tests/unit/udt/tunnel_link.h"

namespace ncgw::udt {
namespace {

using namespace std::chrono_literals;
using transport::TimePoint;

// One direction of a 5 ms link: a fixed ring of datagrams, every 97th dropped.
struct Ring {
  static constexpr std::size_t kSlots = 8192;
  struct Slot {
    TimePoint at;
    std::size_t len = 0;
    std::array<std::uint8_t, 1600> bytes{};
  };
  std::vector<Slot> slots = std::vector<Slot>(kSlots);
  std::size_t head = 0, count = 0;
  std::uint64_t seen = 0;

  void push(transport::Core& from, TimePoint now) {
    while (count < kSlots) {
      Slot& s = slots[(head + count) % kSlots];
      const auto n = from.poll_transmit(s.bytes, now);
      if (!n) return;
      if (++seen % 97 == 0) continue;  // lost
      s.len = *n;
      s.at = now + 5ms;
      ++count;
    }
  }
  void deliver(transport::Core& to, TimePoint now) {
    while (count > 0 && slots[head].at <= now) {
      to.on_datagram(std::span<const std::uint8_t>(slots[head].bytes.data(), slots[head].len), now);
      head = (head + 1) % kSlots;
      --count;
    }
  }
};

TEST(UdtAlloc, ParallelChannelsCarryPacketsWithoutAllocating) {
  auto sa = test::settings(TunnelRole::caller, test::kB, 1);
  auto sb = test::settings(TunnelRole::listener, test::kA, 2);
  sa.channels = sb.channels = 4;
  UdtTunnelCore a(sa), b(sb);
  Ring ab, ba;
  std::array<std::vector<std::uint8_t>, 16> packets;
  for (std::uint16_t f = 0; f < packets.size(); ++f) packets[f] = test::flow_packet(f, 0, 1200);
  std::array<std::uint8_t, 2048> out{};
  std::uint64_t delivered = 0;
  TimePoint now = transport::time_from_ns(1'000'000'000);
  auto run = [&](transport::Duration span) {
    for (const TimePoint end = now + span; now < end; now += 100us) {
      for (transport::Core* c : {static_cast<transport::Core*>(&a), static_cast<transport::Core*>(&b)}) {
        const auto d = c->next_deadline();
        if (d && *d <= now) c->on_timeout(now);
      }
      for (const auto& p : packets) {
        (void)a.send(p, now);
        (void)b.send(p, now);
      }
      ab.push(a, now);
      ba.push(b, now);
      ab.deliver(b, now);
      ba.deliver(a, now);
      while (b.poll_deliver(out)) ++delivered;
      while (a.poll_deliver(out)) ++delivered;
    }
  };
  run(2s);  // warm up: channels connect, buffers fill, loss lists see use
  ASSERT_EQ(a.channels_connected(), 4);
  const std::uint64_t before = delivered;
  g_counting = true;
  run(3s);
  g_counting = false;
  EXPECT_GT(delivered - before, 3000u);
  EXPECT_GT(a.channel(0)->stats().retransmitted + a.channel(1)->stats().retransmitted, 0u);
  EXPECT_EQ(g_allocations.load(), 0u);
}

}  // namespace
}  // namespace ncgw::udt
