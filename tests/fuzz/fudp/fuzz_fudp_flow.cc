// Fuzzes what a LAN host can put into the TUN: parse_flow on any bytes, then the packet through a
// small common flow set (table of 8, so inserts evict) and a period now and then.
#include <cstdint>
#include <span>

#include "gateway/fudp/cfs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ncgw;
  const std::span<const std::uint8_t> input(data, size);
  if (const auto key = fudp::parse_flow(input)) {
    if (key->protocol != 0 && key->protocol != 6 && key->protocol != 17) __builtin_trap();
    if (fudp::flow_class(*key) == fudp::FlowClass::other && (key->src_port | key->dst_port) != 0) __builtin_trap();
  }
  static std::int64_t clock_ns = 0;
  static fudp::Cfs cfs([] {
    fudp::Settings s;
    s.period_ms = 10;
    s.flow_table_size = 8;
    s.idle_timeout_ms = 20;
    return s;
  }(), transport::time_from_ns(0));
  clock_ns += 1'000'000;
  const auto now = transport::time_from_ns(clock_ns);
  cfs.on_packet(input, now);
  if (now >= cfs.next_period()) cfs.on_period(now, size % 2 ? std::optional<double>(1e6) : std::nullopt);
  if (cfs.table().size() > cfs.table().capacity()) __builtin_trap();
  return 0;
}
