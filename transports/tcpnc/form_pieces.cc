#include "transports/tcpnc/form_pieces.h"

#include <algorithm>

#include "transports/tcpnc/wire.h"

namespace ncgw::tcpnc {

static_assert(kHcPiecePrefix == 2);

FormSplitter::FormSplitter(std::size_t max_form) : buf_(max_form + kRoom) {}

void FormSplitter::load(std::size_t length, std::size_t limit) {
  next_ = kRoom;
  end_ = kRoom + length;
  limit_ = limit;
  split_ = length > limit;
  if (split_) {
    ++serial_;
    ++forms_split_;
  }
}

std::span<const std::uint8_t> FormSplitter::next() {
  if (!split_) {
    const std::size_t at = next_;
    next_ = end_;
    return std::span<const std::uint8_t>(buf_).subspan(at, end_ - at);
  }
  // The prefix goes over the 2 bytes before this piece: the previous piece's tail, already coded.
  const std::size_t chunk = std::min(limit_ - kHcPiecePrefix, end_ - next_);
  const std::size_t at = next_ - kHcPiecePrefix;
  const bool first = next_ == kRoom, last = next_ + chunk == end_;
  if (first) index_ = 0;
  buf_[at] = static_cast<std::uint8_t>(kHcFormPiece << 4 | (index_++ & 3u) << kHcPieceIndexShift |
                                       (first ? kHcPieceFirst : 0) | (last ? kHcPieceLast : 0));
  buf_[at + 1] = serial_;
  next_ += chunk;
  ++pieces_;
  return std::span<const std::uint8_t>(buf_).subspan(at, kHcPiecePrefix + chunk);
}

FormJoiner::FormJoiner(std::size_t max_form) : buf_(max_form) {}

std::optional<std::span<const std::uint8_t>> FormJoiner::add(std::span<const std::uint8_t> source) {
  if (source.empty() || source[0] >> 4 != kHcFormPiece) {
    if (open_) { ++ctr_.broken; reset(); }  // the rest of a split form never came
    return source;
  }
  if (source.size() <= kHcPiecePrefix) return ++ctr_.broken, std::nullopt;
  const bool first = (source[0] & kHcPieceFirst) != 0, last = (source[0] & kHcPieceLast) != 0;
  const unsigned index = (source[0] >> kHcPieceIndexShift) & 3u;
  const auto bytes = source.subspan(kHcPiecePrefix);
  if (first) {
    if (open_) ++ctr_.broken;
    open_ = true;
    length_ = 0;
    serial_ = source[1];
    index_ = 0;
  }
  if (!open_ || index != (index_ & 3u) || source[1] != serial_ || length_ + bytes.size() > buf_.size()) {
    ++ctr_.broken;
    reset();
    return std::nullopt;
  }
  std::copy(bytes.begin(), bytes.end(), buf_.begin() + static_cast<std::ptrdiff_t>(length_));
  length_ += bytes.size();
  ++index_;
  if (!last) return std::nullopt;
  open_ = false;
  ++ctr_.joined;
  return std::span<const std::uint8_t>(buf_).first(length_);
}

}  // namespace ncgw::tcpnc
