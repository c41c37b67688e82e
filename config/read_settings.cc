// Readers of the per-transport settings blocks: plain, tcpnc, udt (bounds and cross-checks).
#include <cmath>
#include <limits>

#include "config/scalars.h"
#include "config/sections.h"

namespace ncgw::config::detail {
namespace {

constexpr std::uint64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint32_t kMaxPackets = 1000000;  // buffer bounds: about 1.5 GB at MTU 1500

// Reads `key` into `field` if present, with integer bounds.
template <typename T>
void read_opt(const Node& block, std::string_view key, T& field, std::uint64_t min, std::uint64_t max) {
  if (const auto n = block.find(key)) field = static_cast<T>(read_uint(*n, min, max));
}

// Key to blame for a cross-check: `preferred` if written, else `other`, else the block itself.
Node blame(const Node& block, std::string_view preferred, std::string_view other) {
  if (auto n = block.find(preferred)) return *n;
  if (auto n = block.find(other)) return *n;
  return block;
}

// fixed_n and fixed_k: both or neither, inside the adaptive bounds.
void read_fixed(const Node& block, TcpncSettings& s) {
  const auto n = block.find("fixed_n");
  const auto k = block.find("fixed_k");
  if (n && !k) n->fail("fixed_k must be set too (set both to disable adaptation, or neither)");
  if (k && !n) k->fail("fixed_n must be set too (set both to disable adaptation, or neither)");
  if (!n) return;
  s.fixed_n = read_uint_as<std::uint32_t>(*n, 1, kMaxCodingWindow);
  if (*s.fixed_n < s.n_min || *s.fixed_n > s.n_max) {
    n->fail("expected an integer in n_min..n_max (" + std::to_string(s.n_min) + ".." +
            std::to_string(s.n_max) + "), got " + std::to_string(*s.fixed_n));
  }
  s.fixed_k = read_uint_as<std::uint32_t>(*k, 0, kMaxCodingWindow);
  if (*s.fixed_k > s.k_max) {
    k->fail("expected an integer in 0..k_max (0.." + std::to_string(s.k_max) + "), got " +
            std::to_string(*s.fixed_k));
  }
}

// Cross-checks between the tcpnc fields after they are all read.
void check_tcpnc(const Node& block, const TcpncSettings& s) {
  if (s.n_min > s.n_max) {
    blame(block, "n_max", "n_min").fail("n_min (" + std::to_string(s.n_min) + ") must not exceed n_max (" +
                                        std::to_string(s.n_max) + ")");
  }
  if (s.cwnd_max_packets == 1) {
    block.require("cwnd_max_packets").fail("expected 0 (automatic) or an integer in 2..100000, got 1");
  }
  if (s.sending_buffer_packets != 0 && s.sending_buffer_packets < s.cwnd_max_packets) {
    blame(block, "sending_buffer_packets", "cwnd_max_packets")
        .fail("sending_buffer_packets (" + std::to_string(s.sending_buffer_packets) +
              ") must be 0 or at least cwnd_max_packets (" + std::to_string(s.cwnd_max_packets) + ")");
  }
  if (s.dead_peer_ms <= s.keepalive_ms) {
    blame(block, "dead_peer_ms", "keepalive_ms")
        .fail("dead_peer_ms (" + std::to_string(s.dead_peer_ms) + ") must exceed keepalive_ms (" +
              std::to_string(s.keepalive_ms) + ")");
  }
}

// Buffers smaller than paper 002 section 2.2 sizes them load, with a warning: ncgw holds no link
// queue of its own (link_buffer_packets describes the underlay's and sizes the default sending
// buffer), and a smaller sending buffer only moves the entrance drops earlier. The defaults are
// those of transports/tcpnc/settings.cc (effective_link_buffer, effective_sending_buffer).
void warn_tcpnc_buffers(const Node& block, const TcpncSettings& s) {
  if (s.cwnd_max_packets == 0) return;  // automatic sizing: the buffers follow the measured BDP
  const auto paper_link = static_cast<std::uint32_t>(std::ceil(s.r_max * s.cwnd_max_packets));
  if (s.link_buffer_packets != 0 && s.link_buffer_packets < paper_link) {
    block.require("link_buffer_packets")
        .warn("link_buffer_packets (" + std::to_string(s.link_buffer_packets) +
              ") is below ceil(r_max x cwnd_max_packets) (" + std::to_string(paper_link) +
              "): a full window at the largest redundancy does not fit (paper 002 section 2.2); "
              "0 selects " + std::to_string(paper_link));
  }
  const std::uint32_t link = s.link_buffer_packets != 0 ? s.link_buffer_packets : paper_link;
  const std::uint32_t paper_sending = s.cwnd_max_packets + link;
  if (s.sending_buffer_packets != 0 && s.sending_buffer_packets < paper_sending) {
    block.require("sending_buffer_packets")
        .warn("sending_buffer_packets (" + std::to_string(s.sending_buffer_packets) +
              ") is below cwnd_max_packets + link buffer (" + std::to_string(s.cwnd_max_packets) +
              " + " + std::to_string(link) + " = " + std::to_string(paper_sending) +
              ", paper 002 section 2.2); 0 selects " + std::to_string(paper_sending));
  }
}

}  // namespace

PlainSettings read_plain(const Node& block) {
  static constexpr std::array<std::string_view, 1> keys{"session_id"};
  block.check_keys(keys);
  PlainSettings s;
  read_opt(block, "session_id", s.session_id, 0, kMaxU32);
  return s;
}

TcpncSettings read_tcpnc(const Node& block) {
  static constexpr std::array<std::string_view, 19> keys{
      "congestion_control", "cwnd_max_packets", "link_buffer_packets", "sending_buffer_packets",
      "n_min", "n_max", "k_max", "r_max", "retransmission_target", "idle_retransmission_target",
      "cw_rtt_fraction",
      "sparse_flow_priority", "header_compression", "fixed_n", "fixed_k",
      "rto_min_ms", "keepalive_ms", "dead_peer_ms", "seed"};
  block.check_keys(keys);
  TcpncSettings s;
  if (const auto n = block.find("congestion_control")) {
    s.congestion_control = read_choice<CongestionControl>(*n, kCongestionNames);
  }
  read_opt(block, "cwnd_max_packets", s.cwnd_max_packets, 0, 100000);
  read_opt(block, "link_buffer_packets", s.link_buffer_packets, 0, kMaxPackets);
  read_opt(block, "sending_buffer_packets", s.sending_buffer_packets, 0, kMaxPackets);
  read_opt(block, "n_min", s.n_min, 1, kMaxCodingWindow);
  read_opt(block, "n_max", s.n_max, 1, kMaxCodingWindow);
  read_opt(block, "k_max", s.k_max, 1, kMaxCodingWindow);
  if (const auto n = block.find("r_max")) s.r_max = read_real(*n, {1.0, false, 16.0, false});
  s.retransmission_target = default_retransmission_target(s.congestion_control);
  if (const auto n = block.find("retransmission_target")) {
    s.retransmission_target = read_real(*n, {0.0, true, 1.0, true});
  }
  if (const auto n = block.find("idle_retransmission_target")) {
    s.idle_retransmission_target = read_real(*n, {0.0, true, 1.0, false});
  }
  if (const auto n = block.find("cw_rtt_fraction")) s.cw_rtt_fraction = read_real(*n, {0.0, true, 2.0, false});
  if (const auto n = block.find("sparse_flow_priority")) s.sparse_flow_priority = read_bool(*n);
  if (const auto n = block.find("header_compression")) s.header_compression = read_bool(*n);
  read_opt(block, "rto_min_ms", s.rto_min_ms, 1, 60000);
  read_opt(block, "keepalive_ms", s.keepalive_ms, 1, 600000);
  read_opt(block, "dead_peer_ms", s.dead_peer_ms, 1, 3600000);
  read_opt(block, "seed", s.seed, 0, kMaxU64);
  check_tcpnc(block, s);
  read_fixed(block, s);
  warn_tcpnc_buffers(block, s);
  return s;
}

namespace {

// udt.entrance_queue_ms: auto (-1), off (0) or 1..60000 ms.
std::int32_t read_entrance_queue_ms(const Node& node) {
  const std::string text = node.yaml().IsScalar() ? node.yaml().Scalar() : std::string();
  if (text == "auto") return -1;
  if (text == "off") return 0;
  const auto value = node.yaml().IsScalar() ? parse_decimal(text) : std::nullopt;
  if (!value || *value < 1 || *value > 60000) {
    node.fail("expected 'auto', 'off' or an integer in 1..60000, got " + (value ? text : node.describe()));
  }
  return static_cast<std::int32_t>(*value);
}

}  // namespace

UdtSettings read_udt(const Node& block, std::uint32_t underlay_mtu) {
  static constexpr std::array<std::string_view, 11> keys{
      "mss", "flight_flag_size", "send_buffer_packets", "recv_buffer_packets", "rendezvous",
      "role", "channels", "congestion_control", "initial_window", "entrance_queue_ms", "seed"};
  block.check_keys(keys);
  UdtSettings s;
  const auto mss = block.find("mss");
  if (!mss || (mss->yaml().IsScalar() && mss->yaml().Scalar() == "auto")) {
    s.mss_auto = true;  // written or not: the path MTU toward the peer (at most underlay_mtu), then eq. 15
    s.mss = underlay_mtu;
  } else {
    s.mss_auto = false;
    const auto value = mss->yaml().IsScalar() ? parse_decimal(mss->yaml().Scalar()) : std::nullopt;
    if (!value || *value < 76 || *value > 9000) {
      mss->fail("expected 'auto' or an integer in 76..9000, got " +
                (value ? mss->yaml().Scalar() : mss->describe()));
    }
    s.mss = static_cast<std::uint32_t>(*value);
  }
  if (s.mss > underlay_mtu) {
    block.require("mss").fail("expected at most tun.underlay_mtu (" + std::to_string(underlay_mtu) +
                              "), got " + std::to_string(s.mss));
  }
  read_opt(block, "flight_flag_size", s.flight_flag_size, 32, kMaxPackets);
  read_opt(block, "send_buffer_packets", s.send_buffer_packets, 32, kMaxPackets);
  read_opt(block, "recv_buffer_packets", s.recv_buffer_packets, 32, kMaxPackets);
  if (const auto n = block.find("rendezvous")) s.rendezvous = read_bool(*n);
  if (const auto n = block.find("role")) s.role = read_choice<UdtRole>(*n, kUdtRoleNames);
  if (s.rendezvous && block.find("role") && s.role != UdtRole::rendezvous) {
    blame(block, "role", "rendezvous")
        .fail("role " + std::string(to_string(s.role)) + " contradicts rendezvous: true (say role: rendezvous)");
  }
  if (s.rendezvous) s.role = UdtRole::rendezvous;
  s.rendezvous = s.role == UdtRole::rendezvous;
  read_opt(block, "channels", s.channels, 0, 64);
  if (const auto n = block.find("congestion_control"))
    s.congestion_control = read_choice<UdtCongestionControl>(*n, kUdtCongestionNames);
  read_opt(block, "initial_window", s.initial_window, 2, 8192);
  if (s.initial_window > s.flight_flag_size) {
    blame(block, "initial_window", "flight_flag_size")
        .fail("initial_window " + std::to_string(s.initial_window) + " exceeds flight_flag_size (" +
              std::to_string(s.flight_flag_size) + ")");
  }
  if (const auto n = block.find("entrance_queue_ms")) s.entrance_queue_ms = read_entrance_queue_ms(*n);
  read_opt(block, "seed", s.seed, 0, kMaxU64);
  return s;
}

}  // namespace ncgw::config::detail
