// libFuzzer target for inner header compression, forms in pieces and MSS clamping. Input: a
// sequence of chunks, each [u16 big-endian length][bytes]. Every chunk goes (1) through a form
// joiner to a decompressor as a source from the network, which must reject or rebuild it without
// reading or writing out of bounds, and (2) as an inner packet, its SYN MSS clamped, through a
// compressor (into one source of a size the chunk picks, or, when its form does not fit there, a
// splitter), a second joiner and decompressor, which must give back exactly the (clamped) chunk.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <vector>

#include "transports/common/byte_order.h"
#include "transports/common/tcp_mss.h"
#include "transports/tcpnc/form_pieces.h"
#include "transports/tcpnc/header_compression.h"

namespace {

using namespace ncgw::tcpnc;

constexpr std::size_t kOut = 2048;  // inner packets longer than this are cut to it

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static HeaderDecompressor forms;
  static HeaderCompressor tx;
  static HeaderDecompressor rx;
  static FormJoiner net_joiner(kOut + kHcMaxPrefix), rx_joiner(kOut + kHcMaxPrefix);
  static FormSplitter splitter(kOut + kHcMaxPrefix);
  forms.reset();
  tx.reset();
  rx.reset();
  net_joiner.reset();
  rx_joiner.reset();
  splitter.clear();
  std::vector<std::uint8_t> out(kOut), packet(kOut), back(kOut);
  std::span<const std::uint8_t> in(data, size);
  while (in.size() >= 2) {
    const std::size_t len = std::min<std::size_t>({ncgw::transport::get_be16(in.data()), in.size() - 2, kOut});
    const auto chunk = in.subspan(2, len);
    in = in.subspan(2 + len);
    if (const auto joined = net_joiner.add(chunk))
      if (const auto n = forms.decompress(*joined, out); n && *n > out.size()) std::abort();
    if (chunk.empty()) continue;
    const auto inner = std::span<std::uint8_t>(packet).first(chunk.size());
    std::copy(chunk.begin(), chunk.end(), inner.begin());
    const std::uint16_t mss = static_cast<std::uint16_t>(500 + len % 1000);
    ncgw::transport::clamp_syn_mss(inner, mss);
    if (const auto m = ncgw::transport::syn_mss(inner); m > mss) std::abort();
    // As the sender does: first into one source's room (the form must fit or be refused untouched),
    // then, if refused, into the splitter.
    const std::size_t limit = kHcPiecePrefix + 1 + len % 700;
    std::vector<std::uint8_t> source(limit + 1, 0xA5);
    const std::uint8_t ctx = HeaderCompressor::context_for(inner);
    std::optional<std::size_t> n;
    if (const std::size_t direct = tx.compress(inner, ctx, std::span(source).first(limit))) {
      if (direct > limit || source[limit] != 0xA5) std::abort();
      if (const auto joined = rx_joiner.add(std::span(source).first(direct))) n = rx.decompress(*joined, back);
    } else {
      if (!std::all_of(source.begin(), source.end(), [](std::uint8_t b) { return b == 0xA5; })) std::abort();
      const std::size_t f = tx.compress(inner, ctx, splitter.form_buffer());
      if (f <= limit || f > chunk.size() + kHcMaxPrefix) std::abort();  // refused, so it did not fit
      splitter.load(f, limit);
      while (splitter.pending())
        if (const auto joined = rx_joiner.add(splitter.next())) n = rx.decompress(*joined, back);
    }
    if (!n || *n != inner.size() || !std::equal(inner.begin(), inner.end(), back.begin())) std::abort();
  }
  return 0;
}
