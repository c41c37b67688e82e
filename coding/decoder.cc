// Decoder: forwards to DecoderImpl (keeps the public header free of slot internals).
#include "coding/decoder.h"

#include <algorithm>

#include "coding/decoder_impl.h"

namespace ncgw::coding {

Decoder::Decoder(const DecoderConfig& cfg) : impl_(std::make_unique<DecoderImpl>(cfg)) {}
Decoder::~Decoder() = default;
Decoder::Decoder(Decoder&&) noexcept = default;
Decoder& Decoder::operator=(Decoder&&) noexcept = default;

FeedResult Decoder::feed(const CodingHeader& h, std::span<const std::uint8_t> payload) {
  return impl_->feed(h, payload);
}
FeedResult Decoder::feed_datagram(std::span<const std::uint8_t> d) { return impl_->feed_datagram(d); }
std::uint64_t Decoder::seen() const { return impl_->seen(); }
std::uint64_t Decoder::next_release() const { return impl_->next_release(); }

std::optional<std::size_t> Decoder::next_length() const {
  const auto f = impl_->front();
  if (f.empty()) return std::nullopt;
  return f.size();
}

std::optional<Released> Decoder::pop(std::span<std::uint8_t> out) {
  const auto f = impl_->front();
  if (f.empty() || out.size() < f.size()) return std::nullopt;
  std::copy(f.begin(), f.end(), out.begin());
  Released r{impl_->next_release(), f.size()};
  impl_->drop_front();
  return r;
}

std::span<const std::uint8_t> Decoder::front() const { return impl_->front(); }
void Decoder::drop_front() { impl_->drop_front(); }
std::optional<CwStatus> Decoder::status(std::uint64_t id) const { return impl_->status(id); }
std::size_t Decoder::incomplete(std::span<CwStatus> out) const { return impl_->incomplete(out); }
std::uint64_t Decoder::oldest_cw() const { return impl_->oldest_cw(); }
const DecoderStats& Decoder::stats() const { return impl_->stats(); }

}  // namespace ncgw::coding
