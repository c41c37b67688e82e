#include "transports/udt/packet.h"

#include "transports/common/byte_order.h"

namespace ncgw::udt {
using transport::get_be32;
using transport::put_be32;

std::array<std::uint32_t, 4> peer_ip_words(const PeerAddress& addr) {
  std::array<std::uint32_t, 4> w{};
  const int n = addr.v6 ? 4 : 1;
  for (int i = 0; i < n; ++i) {
    const std::uint8_t* b = addr.bytes.data() + 4 * i;
    w[i] = std::uint32_t{b[0]} | (std::uint32_t{b[1]} << 8) | (std::uint32_t{b[2]} << 16) | (std::uint32_t{b[3]} << 24);
  }
  return w;
}

std::optional<Packet> parse_packet(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < wire::kHeaderSize) return std::nullopt;
  Packet p;
  const std::uint32_t w0 = get_be32(bytes.data());
  p.timestamp = get_be32(bytes.data() + 8);
  p.dest_id = get_be32(bytes.data() + 12);
  p.payload = bytes.subspan(wire::kHeaderSize);
  if (w0 & wire::kControlBit) {
    if (p.payload.size() % 4 != 0) return std::nullopt;  // the library converts whole words
    p.control = true;
    p.type = static_cast<wire::ControlType>((w0 >> 16) & 0x7FFF);
    p.ext_type = static_cast<std::uint16_t>(w0 & 0xFFFF);
    p.info = get_be32(bytes.data() + 4);
  } else {
    p.seq = static_cast<std::int32_t>(w0);
    p.msg_word = get_be32(bytes.data() + 4);
  }
  return p;
}

std::optional<Handshake> parse_handshake(std::span<const std::uint8_t> payload) {
  if (payload.size() < wire::kHandshakeSize) return std::nullopt;
  auto w = [&](int i) { return static_cast<std::int32_t>(get_be32(payload.data() + 4 * i)); };
  Handshake h;
  h.version = w(0);
  h.sock_type = w(1);
  h.isn = w(2);
  h.mss = w(3);
  h.flight_flag_size = w(4);
  h.req_type = w(5);
  h.socket_id = w(6);
  h.cookie = w(7);
  for (int i = 0; i < 4; ++i) h.peer_ip[i] = static_cast<std::uint32_t>(w(8 + i));
  return h;
}

std::optional<AckContent> parse_ack(std::span<const std::uint8_t> payload) {
  AckContent a;
  auto w = [&](int i) { return static_cast<std::int32_t>(get_be32(payload.data() + 4 * i)); };
  if (payload.size() == wire::kAckLightSize) {
    a.words = 1;
  } else if (payload.size() >= wire::kAckFullSize) {
    a.words = 6;
  } else if (payload.size() >= wire::kAckShortSize) {
    a.words = 4;
  } else {
    return std::nullopt;
  }
  a.ack = w(0);
  if (a.words >= 4) {
    a.rtt_us = w(1);
    a.rtt_var_us = w(2);
    a.avail_buffer = w(3);
  }
  if (a.words == 6) {
    a.arrival_rate = w(4);
    a.capacity = w(5);
  }
  if (a.ack < 0) return std::nullopt;
  return a;
}

std::optional<DropRequest> parse_drop_request(const Packet& p) {
  if (p.payload.size() < 8) return std::nullopt;
  DropRequest d;
  d.msgno = static_cast<std::int32_t>(p.info & wire::kMsgNoMask);
  d.first = static_cast<std::int32_t>(get_be32(p.payload.data()));
  d.last = static_cast<std::int32_t>(get_be32(p.payload.data() + 4));
  if (d.first < 0 || d.last < 0) return std::nullopt;
  return d;
}

std::size_t write_data_header(std::span<std::uint8_t> out, std::int32_t seq, std::uint32_t msg_word,
                              std::uint32_t timestamp, std::uint32_t dest_id) {
  if (out.size() < wire::kHeaderSize) return 0;
  put_be32(out.data(), static_cast<std::uint32_t>(seq) & 0x7FFFFFFFu);
  put_be32(out.data() + 4, msg_word);
  put_be32(out.data() + 8, timestamp);
  put_be32(out.data() + 12, dest_id);
  return wire::kHeaderSize;
}

std::size_t write_control(std::span<std::uint8_t> out, wire::ControlType type, std::uint32_t info,
                          std::uint32_t dest_id, std::span<const std::uint32_t> words) {
  const std::size_t body = words.empty() ? wire::kEmptyControlPad : 4 * words.size();
  if (out.size() < wire::kHeaderSize + body) return 0;
  put_be32(out.data(), wire::kControlBit | (static_cast<std::uint32_t>(type) << 16));
  put_be32(out.data() + 4, info);
  put_be32(out.data() + 8, 0);  // the library leaves control timestamps at 0
  put_be32(out.data() + 12, dest_id);
  std::uint8_t* p = out.data() + wire::kHeaderSize;
  if (words.empty()) put_be32(p, 0);
  for (std::size_t i = 0; i < words.size(); ++i) put_be32(p + 4 * i, words[i]);
  return wire::kHeaderSize + body;
}

std::size_t write_handshake(std::span<std::uint8_t> out, std::uint32_t dest_id, const Handshake& h) {
  const std::uint32_t w[12] = {
      static_cast<std::uint32_t>(h.version), static_cast<std::uint32_t>(h.sock_type),
      static_cast<std::uint32_t>(h.isn), static_cast<std::uint32_t>(h.mss),
      static_cast<std::uint32_t>(h.flight_flag_size), static_cast<std::uint32_t>(h.req_type),
      static_cast<std::uint32_t>(h.socket_id), static_cast<std::uint32_t>(h.cookie),
      h.peer_ip[0], h.peer_ip[1], h.peer_ip[2], h.peer_ip[3]};
  return write_control(out, wire::ControlType::handshake, 0, dest_id, w);
}

std::size_t write_ack(std::span<std::uint8_t> out, std::uint32_t dest_id, std::int32_t ack_seq, const AckContent& a) {
  const std::uint32_t w[6] = {static_cast<std::uint32_t>(a.ack), static_cast<std::uint32_t>(a.rtt_us),
                              static_cast<std::uint32_t>(a.rtt_var_us), static_cast<std::uint32_t>(a.avail_buffer),
                              static_cast<std::uint32_t>(a.arrival_rate), static_cast<std::uint32_t>(a.capacity)};
  const std::size_t n = a.words >= 6 ? 6 : (a.words >= 4 ? 4 : 1);
  return write_control(out, wire::ControlType::ack, static_cast<std::uint32_t>(ack_seq), dest_id,
                       std::span<const std::uint32_t>(w, n));
}

std::size_t write_nak(std::span<std::uint8_t> out, std::uint32_t dest_id,
                      std::span<const std::array<std::int32_t, 2>> ranges) {
  const std::size_t max_words = out.size() < wire::kHeaderSize ? 0 : (out.size() - wire::kHeaderSize) / 4;
  if (out.size() < wire::kHeaderSize + 4) return 0;
  std::uint8_t* p = out.data() + wire::kHeaderSize;
  std::size_t n = 0;
  for (const auto& r : ranges) {
    const bool single = r[0] == r[1];
    if (n + (single ? 1 : 2) > max_words) break;
    if (single) {
      put_be32(p + 4 * n++, static_cast<std::uint32_t>(r[0]));
    } else {
      put_be32(p + 4 * n++, static_cast<std::uint32_t>(r[0]) | wire::kNakRangeBit);
      put_be32(p + 4 * n++, static_cast<std::uint32_t>(r[1]));
    }
  }
  if (n == 0) return 0;
  put_be32(out.data(), wire::kControlBit | (static_cast<std::uint32_t>(wire::ControlType::nak) << 16));
  put_be32(out.data() + 4, 0);
  put_be32(out.data() + 8, 0);
  put_be32(out.data() + 12, dest_id);
  return wire::kHeaderSize + 4 * n;
}

std::size_t write_drop_request(std::span<std::uint8_t> out, std::uint32_t dest_id, const DropRequest& d) {
  const std::uint32_t w[2] = {static_cast<std::uint32_t>(d.first), static_cast<std::uint32_t>(d.last)};
  return write_control(out, wire::ControlType::drop_request, static_cast<std::uint32_t>(d.msgno), dest_id, w);
}

}  // namespace ncgw::udt
