#include "transports/plain/header.h"

#include "transports/common/byte_order.h"

namespace ncgw::plain {

using transport::get_be16;
using transport::get_be32;
using transport::put_be16;
using transport::put_be32;

const char* to_string(DecodeError e) {
  switch (e) {
    case DecodeError::none: return "none";
    case DecodeError::too_short: return "too_short";
    case DecodeError::bad_magic: return "bad_magic";
    case DecodeError::bad_version: return "bad_version";
    case DecodeError::bad_type: return "bad_type";
    case DecodeError::bad_flags: return "bad_flags";
    case DecodeError::bad_length: return "bad_length";
  }
  return "unknown";
}

void encode_header(const Header& h, std::span<std::uint8_t> out) {
  std::uint8_t* p = out.data();
  put_be16(p, kMagic);
  p[2] = kVersion;
  p[3] = static_cast<std::uint8_t>(h.type);
  p[4] = h.flags;
  p[5] = h.auth_len;
  put_be16(p + kOffSeq, h.seq);
  put_be32(p + 8, h.session_id);
}

// Checks the fixed fields; fills `h` on success.
static DecodeError check_fixed_fields(const std::uint8_t* p, Header& h) {
  if (get_be16(p) != kMagic) return DecodeError::bad_magic;
  if (p[2] != kVersion) return DecodeError::bad_version;
  const std::uint8_t type = p[3];
  if (type != static_cast<std::uint8_t>(PacketType::data) &&
      type != static_cast<std::uint8_t>(PacketType::keepalive)) {
    return DecodeError::bad_type;
  }
  h.type = static_cast<PacketType>(type);
  h.flags = p[4];
  h.auth_len = p[5];
  if ((h.flags & ~kKnownFlags) != 0 || h.auth_len != 0) return DecodeError::bad_flags;
  h.seq = get_be16(p + kOffSeq);
  h.session_id = get_be32(p + 8);
  return DecodeError::none;
}

Decoded decode_datagram(std::span<const std::uint8_t> datagram) {
  Decoded d;
  if (datagram.size() < kHeaderSize) {
    d.error = DecodeError::too_short;
    return d;
  }
  d.error = check_fixed_fields(datagram.data(), d.header);
  if (d.error != DecodeError::none) return d;
  d.payload = datagram.subspan(kHeaderSize);
  const bool is_data = d.header.type == PacketType::data;
  if (is_data == d.payload.empty()) d.error = DecodeError::bad_length;
  return d;
}

}  // namespace ncgw::plain
