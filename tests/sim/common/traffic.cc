#include "tests/sim/common/traffic.h"

#include <algorithm>

#include "transports/common/byte_order.h"

namespace ncgw::sim {
namespace {

constexpr std::uint32_t kMagic = 0x53494D50;  // "SIMP"

// Pattern byte at `offset` of packet (stream, seq).
std::uint8_t pattern(std::uint32_t stream, std::uint64_t seq, std::size_t offset) {
  return static_cast<std::uint8_t>((seq * 131 + offset * 7 + stream * 17) & 0xFF);
}

}  // namespace

void stamp_source_packet(std::span<std::uint8_t> out, std::uint32_t stream, std::uint64_t seq, TimePoint offered) {
  using namespace transport;
  put_be32(out.data(), kMagic);
  put_be32(out.data() + 4, stream);
  put_be64(out.data() + 8, seq);
  put_be16(out.data() + 16, static_cast<std::uint16_t>(out.size()));
  put_be64(out.data() + 18, static_cast<std::uint64_t>(offered.time_since_epoch().count()));
  for (std::size_t i = kSourceHeaderBytes; i < out.size(); ++i) out[i] = pattern(stream, seq, i);
}

BulkSource::BulkSource(std::size_t size, std::uint32_t stream, std::uint64_t limit)
    : size_(std::max(size, kSourceHeaderBytes)), stream_(stream), limit_(limit), buf_(size_) {}

void BulkSource::pump(Core& core, TimePoint now) {
  const std::size_t size = std::min(size_, std::max(core.max_payload(), kSourceHeaderBytes));
  std::span<std::uint8_t> pkt(buf_.data(), size);
  while (limit_ == 0 || next_seq_ < limit_) {
    stamp_source_packet(pkt, stream_, next_seq_, now);
    if (core.send(pkt, now) != transport::SendResult::accepted) { ++refused_; return; }
    ++next_seq_;
  }
}

WindowSource::WindowSource(std::size_t size, std::uint32_t stream, std::uint64_t window,
                           std::function<std::uint64_t()> delivered)
    : size_(std::max(size, kSourceHeaderBytes)), stream_(stream), window_(window), delivered_(std::move(delivered)),
      buf_(size_) {}

void WindowSource::pump(Core& core, TimePoint now) {
  const std::size_t size = std::min(size_, std::max(core.max_payload(), kSourceHeaderBytes));
  std::span<std::uint8_t> pkt(buf_.data(), size);
  while (next_seq_ < delivered_() + window_) {
    stamp_source_packet(pkt, stream_, next_seq_, now);
    if (core.send(pkt, now) != transport::SendResult::accepted) return;
    ++next_seq_;
  }
}

PacedSource::PacedSource(std::size_t size, std::uint32_t stream, Duration interval, TimePoint start,
                         std::uint64_t limit)
    : size_(std::max(size, kSourceHeaderBytes)), stream_(stream), interval_(interval), next_(start),
      limit_(limit), buf_(size_) {}

void PacedSource::pump(Core& core, TimePoint now) {
  while (next_ <= now && (limit_ == 0 || seq_ < limit_)) {
    std::span<std::uint8_t> pkt(buf_.data(), std::min(size_, core.max_payload()));
    stamp_source_packet(pkt, stream_, seq_, now);
    if (core.send(pkt, now) == transport::SendResult::accepted) {
      ++accepted_;
      ++seq_;  // refused packets are skipped: the sink sees a gap unless it never happens
    } else {
      ++refused_;
      ++seq_;
    }
    next_ += interval_;
  }
}

std::optional<TimePoint> PacedSource::next_time() const {
  if (limit_ != 0 && seq_ >= limit_) return std::nullopt;
  return next_;
}

void Sink::fail(const std::string& what) {
  if (errors_++ == 0) first_error_ = what;
}

void Sink::receive(std::span<const std::uint8_t> packet, TimePoint now) {
  using namespace transport;
  ++packets_;
  bytes_ += packet.size();
  last_time_ = now;
  if (packet.size() < kSourceHeaderBytes || get_be32(packet.data()) != kMagic) {
    fail("packet " + std::to_string(packets_) + ": not a source packet");
    return;
  }
  const std::uint32_t stream = get_be32(packet.data() + 4);
  const std::uint64_t seq = get_be64(packet.data() + 8);
  if (get_be16(packet.data() + 16) != packet.size()) fail("seq " + std::to_string(seq) + ": length");
  for (std::size_t i = kSourceHeaderBytes; i < packet.size(); ++i)
    if (packet[i] != pattern(stream, seq, i)) { fail("seq " + std::to_string(seq) + ": corrupt"); break; }
  record_delay(now - TimePoint(Duration(static_cast<Duration::rep>(get_be64(packet.data() + 18)))));
  if (!have_stream_ || stream > stream_) {  // a new stream (first, or a restarted source)
    if (seq != 0 && !allow_gaps_) fail("stream " + std::to_string(stream) + " starts at " + std::to_string(seq));
    have_stream_ = true;
    stream_ = stream;
    expected_ = seq + 1;
    return;
  }
  if (stream < stream_) { fail("packet of old stream " + std::to_string(stream)); return; }
  if (seq == expected_) { ++expected_; return; }
  if (seq > expected_ && allow_gaps_) { ++gaps_; expected_ = seq + 1; return; }
  fail("expected seq " + std::to_string(expected_) + " got " + std::to_string(seq));
  if (seq > expected_) expected_ = seq + 1;
}

void Sink::record_delay(Duration d) {
  const double ms = std::chrono::duration<double, std::milli>(d).count();
  ++delays_;
  delay_sum_ms_ += ms;
  delay_max_ms_ = std::max(delay_max_ms_, ms);
  const auto bucket = static_cast<std::size_t>(std::clamp(ms, 0.0, 4000.0));
  ++delay_histogram_[bucket];
}

double Sink::delay_quantile_ms(double q) const {
  const auto want = static_cast<std::uint64_t>(q * static_cast<double>(delays_));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < delay_histogram_.size(); ++i)
    if ((seen += delay_histogram_[i]) > want) return static_cast<double>(i + 1);
  return static_cast<double>(delay_histogram_.size());
}

void Sink::reset_delays() {
  delays_ = 0;
  delay_sum_ms_ = delay_max_ms_ = 0;
  std::fill(delay_histogram_.begin(), delay_histogram_.end(), 0);
}

}  // namespace ncgw::sim
