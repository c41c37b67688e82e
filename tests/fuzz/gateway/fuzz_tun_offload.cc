// libFuzzer target for TUN offloads: the coalescer takes packets peers delivered (bytes from the
// network, authenticated but not trusted) and the splitter parses TUN frames (virtio_net_hdr).
// Input: records [u8 kind][u16 big-endian length][bytes]; kind even: a packet for the coalescer
// (a refused packet flushes the pending frame and is offered again), kind odd: a raw TUN frame for
// the splitter. Every frame the coalescer writes must split back into as many packets as it
// merged, carrying the same number of bytes; nothing may read or write out of bounds.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "gateway/tun_coalesce.h"
#include "gateway/tun_offload.h"

namespace {

using namespace ncgw::gateway;

TunCoalescer coalescer;
OffloadSplitter splitter;
std::uint8_t frame_copy[kMaxTunFrame];
std::size_t merged_bytes = 0;   // packet bytes in the pending frame (each packet's own headers)

// Splits the coalescer's pending frame and checks it against what went in; clears it.
void flush() {
  if (coalescer.empty()) return;
  const std::size_t count = coalescer.segments();
  const auto frame = coalescer.frame();
  std::copy(frame.begin(), frame.end(), frame_copy);
  const SplitResult r = splitter.split({frame_copy, frame.size()});
  if (r != SplitResult::packet && r != SplitResult::segmented) std::abort();
  if (splitter.count() != count) std::abort();
  std::size_t out = 0;
  for (std::size_t i = 0; i < splitter.count(); ++i) out += splitter.segment(i).size();
  if (out != merged_bytes) std::abort();
  coalescer.clear();
  merged_bytes = 0;
}

// Offers one delivered packet as the gateway does (gateway.cc write_tun_data).
void offer(std::span<const std::uint8_t> packet) {
  if (!coalescer.add(packet)) {
    flush();
    if (!coalescer.add(packet)) return;   // written alone
  }
  merged_bytes += packet.size();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::uint8_t> in(data, size);
  coalescer.clear();
  merged_bytes = 0;
  while (in.size() >= 3) {
    const std::uint8_t kind = in[0];
    const std::size_t len = std::min<std::size_t>((std::size_t{in[1]} << 8) | in[2], in.size() - 3);
    const auto record = in.subspan(3, len);
    in = in.subspan(3 + len);
    if (kind % 2 == 0) {
      offer(record);
    } else {
      std::copy(record.begin(), record.end(), frame_copy);
      splitter.split({frame_copy, record.size()});
    }
  }
  flush();
  return 0;
}
