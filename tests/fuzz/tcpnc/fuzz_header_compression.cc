// libFuzzer target for inner header compression. Input: a sequence of chunks, each [u16
// big-endian length][bytes]. Every chunk goes (1) to a decompressor as a form, which must reject
// or rebuild it without reading or writing out of bounds, and (2) as an inner packet through a
// compressor and a second decompressor joined in order, which must give back exactly the chunk.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "transports/common/byte_order.h"
#include "transports/tcpnc/header_compression.h"

namespace {

using namespace ncgw::tcpnc;

constexpr std::size_t kOut = 2048;  // inner packets longer than this are cut to it

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static HeaderDecompressor forms;
  static HeaderCompressor tx;
  static HeaderDecompressor rx;
  forms.reset();
  tx.reset();
  rx.reset();
  std::vector<std::uint8_t> out(kOut), form(kOut + kHcMaxPrefix), back(kOut);
  std::span<const std::uint8_t> in(data, size);
  while (in.size() >= 2) {
    const std::size_t len = std::min<std::size_t>({ncgw::transport::get_be16(in.data()), in.size() - 2, kOut});
    const auto chunk = in.subspan(2, len);
    in = in.subspan(2 + len);
    if (const auto n = forms.decompress(chunk, out); n && *n > out.size()) std::abort();
    if (chunk.empty()) continue;
    const std::size_t f = tx.compress(chunk, HeaderCompressor::context_for(chunk), form);
    if (f > chunk.size() + kHcMaxPrefix) std::abort();
    const auto n = rx.decompress(std::span<const std::uint8_t>(form).first(f), back);
    if (!n || *n != chunk.size() || !std::equal(chunk.begin(), chunk.end(), back.begin())) std::abort();
  }
  return 0;
}
