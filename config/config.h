// Typed gateway configuration, filled from YAML by load_config_file() (config/loader.h).
// Every field carries its default here; docs/config.md documents each key.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/prefix.h"

namespace ncgw::config {

// Which transport carries a peer's tunnel.
enum class TransportKind { plain, tcpnc, udt };

// Congestion control of the TCP/NC sender.
enum class CongestionControl { newreno, cubic, bbr };

// Default `retransmission_target` (the bound on the share of coding windows that need a coded
// retransmission round) per controller. With bbr a round costs delay only (half a round per RTT
// by default). newreno and cubic treat every such round as a congestion event and halve their
// window (paper 002's TCP/NC), so they get paper 002's small target: at 0.25 a 5 % loss rate
// halved them often enough to lose 40 % of the paper 002 topology 1 goodput (docs/results/paper002.md).
inline constexpr double kRetransmissionTargetBbr = 0.25;
inline constexpr double kRetransmissionTargetLossBased = 0.02;
constexpr double default_retransmission_target(CongestionControl c) {
  return c == CongestionControl::bbr ? kRetransmissionTargetBbr : kRetransmissionTargetLossBased;
}

// What happens to the TUN device at shutdown.
enum class TunOnExit { remove, keep };

// TUN offloads: auto = IFF_VNET_HDR with TSO4/TSO6 and checksum offload where the kernel accepts
// them (the gateway cuts super-packets itself); off = one plain IP packet per read and write.
enum class TunOffload { automatic, off };

// Settings of the unreliable `plain` transport (UDP encapsulation, no recovery).
struct PlainSettings {
  std::uint32_t session_id = 0;  // 0: derived from the two gateway names
  friend bool operator==(const PlainSettings&, const PlainSettings&) = default;
};

// Largest coding window and most repairs per window the coding layer handles (coding::kMaxWindow).
inline constexpr std::uint32_t kMaxCodingWindow = 255;

// Settings of the TCP/NC transport (paper 002 section 2; docs/tcpnc-mechanism.md).
struct TcpncSettings {
  CongestionControl congestion_control = CongestionControl::bbr;
  std::uint32_t cwnd_max_packets = 0;        // CWND_max, upper limit on transmissions in flight;
                                             // 0: automatic (from the measured BDP)
  std::uint32_t link_buffer_packets = 0;     // 0: R_max x CWND_max (paper 002 section 2.2)
  std::uint32_t sending_buffer_packets = 0;  // 0: CWND_max + link buffer; with CWND_max automatic,
                                             // a queueing-delay budget at the measured rate
  std::uint32_t n_min = 4;                   // coding window size bounds (source packets)
  std::uint32_t n_max = 255;  // upper bound; the CW's delay budget sets n (docs/tcpnc-congestion.md)
  std::uint32_t k_max = 255;                 // most repairs per coding window
  double r_max = 2.0;                        // largest redundancy factor R = (n + k) / n
  // Upper bound on P(a CW needs a retransmission round); a file that does not set it gets
  // default_retransmission_target(congestion_control).
  double retransmission_target = kRetransmissionTargetBbr;
  // The same bound while the path has room for the repairs it needs: input (with those repairs)
  // below the path rate, as from a window-limited end host, and CWs that close early because input
  // paused (the end of a burst, a lone interactive packet). There a round costs the waiting packets
  // a round trip and the repairs cost only idle capacity. At most retransmission_target in effect.
  double idle_retransmission_target = 0.01;
  // Longest coding window as a share of the path's min RTT (never shorter than 15 ms): a lost
  // source holds the sources after it in its CW until the CW's repairs arrive.
  double cw_rtt_fraction = 0.5;
  // Packets of a flow with nothing waiting at the tunnel's entrance pass the bulk queue (pings,
  // DNS, handshakes, the ACKs of a reverse transfer are neither delayed nor dropped by a bulk flow
  // that fills the entrance); false: one FIFO.
  bool sparse_flow_priority = true;
  // Inner IP/TCP/UDP headers travel as the bytes that changed from the flow's previous packet
  // (about 11 bytes instead of 52 for a bulk TCP packet); used when both gateways have it on.
  bool header_compression = true;
  std::optional<std::uint32_t> fixed_n;      // set both to disable adaptation
  std::optional<std::uint32_t> fixed_k;
  std::uint32_t rto_min_ms = 200;            // RFC 6298 with a floor near the inner TCP's 200 ms
  std::uint32_t keepalive_ms = 1000;
  std::uint32_t dead_peer_ms = 10000;        // no datagram for this long: session reset
  std::uint64_t seed = 1;                    // coefficient and jitter seed, recorded in logs
  friend bool operator==(const TcpncSettings&, const TcpncSettings&) = default;
};

// Settings of the UDT transport (UDT4 4.11 wire format; docs/udt-wire.md).
// How a UDT tunnel comes up: `automatic` decides caller or listener from the ordered pair of
// underlay endpoints (both gateways see it alike, whatever they call each other).
enum class UdtRole { automatic, caller, listener, rendezvous };
// The UDT sender's congestion control: the reference library's CUDTCC, PaUDT's window rule, or the
// model-based controller TCP/NC uses (a sender-side choice: every one works with any UDT4 peer).
enum class UdtCongestionControl { udt4, paudt, bbr };

struct UdtSettings {
  std::uint32_t mss = 1500;                  // UDT MSS: IP packet size on the underlay (fixed; an
                                             // upper bound of tun.underlay_mtu when mss_auto)
  bool mss_auto = true;                      // mss: auto (path MTU toward the peer, then eq. 15)
  std::uint32_t flight_flag_size = 25600;    // max packets in flight (UDT_FC)
  std::uint32_t send_buffer_packets = 8192;
  std::uint32_t recv_buffer_packets = 8192;
  UdtRole role = UdtRole::automatic;         // auto | caller | listener | rendezvous
  bool rendezvous = false;                   // older spelling of role: rendezvous (kept in step)
  std::uint32_t channels = 1;                // parallel channels; 0: tuned from RTT (paper 001)
  UdtCongestionControl congestion_control = UdtCongestionControl::udt4;
  std::uint32_t initial_window = 16;         // slow start's first window, packets (paper 000: 16)
  std::int32_t entrance_queue_ms = -1;       // wait allowed at the entrance: -1 auto (min RTT/2 +
                                             // 10 ms), 0 off (only send_buffer_packets bounds it)
  std::uint64_t seed = 1;
  friend bool operator==(const UdtSettings&, const UdtSettings&) = default;
};

// Whether a peer's datagrams travel inside the secure layer (docs/security.md).
enum class Security { aead, none };

// FUDP (paper 003; docs/fudp.md): per-flow accounting at a tunnel's entrance and TCP-friendly
// shaping of greedy UDP flows. At the top level for every peer; a peer's own block overrides it.
struct FudpSettings {
  bool enabled = false;                      // account flows and run the control loop
  bool shape = true;                         // false: allocate and report, never drop
  std::uint32_t period_ms = 5000;            // control period (paper 003: 5 s)
  double alpha = 0.875;                      // EWMA factor of the TCP prediction (eq. 1)
  double beta = 0.25;                        // EWMA factor of its deviation (eq. 2)
  std::uint32_t flow_table_size = 4096;      // most flows tracked per peer; the oldest idle goes first
  std::uint32_t idle_timeout_ms = 30000;     // a flow unseen this long is forgotten
  friend bool operator==(const FudpSettings&, const FudpSettings&) = default;
};

// A remote gateway and how to reach it.
struct Peer {
  std::string name;
  std::string endpoint_host;                 // IP literal of the peer's underlay address
  std::uint16_t endpoint_port = 0;           // 0: the default port of the transport kind
                                             // (the loader fills it in: never 0 after loading)
  TransportKind transport = TransportKind::plain;
  PlainSettings plain;
  TcpncSettings tcpnc;
  UdtSettings udt;
  Security security = Security::aead;       // `none` must be written: plaintext, unauthenticated
  std::string public_key;                    // the peer's X25519 public key, base64 (aead only)
  std::string preshared_key_file;            // optional: base64 pre-shared key, mixed into handshakes
  std::uint32_t rekey_after_s = 120;         // session keys rotate this often (tests shorten it)
  FudpSettings fudp;                         // the top-level `fudp` with this peer's own keys over it
  friend bool operator==(const Peer&, const Peer&) = default;
};

// A remote prefix reachable through a peer (longest-prefix match; installed as kernel routes).
struct Route {
  Prefix prefix;
  std::string via;                           // peer name
  friend bool operator==(const Route&, const Route&) = default;
};

// The TUN device the gateway reads from and writes to.
struct TunConfig {
  std::string name = "ncgw0";
  std::optional<std::uint32_t> mtu;          // unset: underlay_mtu minus the tunnel's headers
  std::uint32_t underlay_mtu = 1500;
  std::vector<Prefix> addresses;             // interface addresses with prefix length (v4 and v6)
  TunOnExit on_exit = TunOnExit::remove;
  TunOffload offload = TunOffload::automatic;
  friend bool operator==(const TunConfig&, const TunConfig&) = default;
};

// The local UDP endpoints; each transport kind has its own port (UDT has no magic number).
struct ListenConfig {
  std::string address = "0.0.0.0";
  std::uint16_t plain_port = 5500;
  std::uint16_t tcpnc_port = 5501;
  std::uint16_t udt_port = 5502;
  friend bool operator==(const ListenConfig&, const ListenConfig&) = default;
};

// Log destination and level.
struct LoggingConfig {
  std::string level = "info";                // trace, debug, info, warn, error, off
  std::string file;                          // empty: stderr
  friend bool operator==(const LoggingConfig&, const LoggingConfig&) = default;
};

// Directory of the default control sockets (/run/ncgw/<name>.sock).
inline constexpr const char* kControlSocketDir = "/run/ncgw";
// The default control socket of gateway `name`.
inline std::string default_control_socket(const std::string& name) {
  return std::string(kControlSocketDir) + "/" + name + ".sock";
}

// The whole gateway configuration.
// The most event loops `gateway.workers` may ask for.
inline constexpr std::uint32_t kMaxWorkers = 64;

struct GatewayConfig {
  std::string name;                          // required
  std::string control_socket;                // empty: /run/ncgw/<name>.sock (filled in by the loader)
  std::string private_key_file;              // base64 X25519 private key; needed by aead peers
  std::string user = "auto";                 // who the daemon runs as after setup (docs/security.md)
  std::vector<std::string> internal_interfaces;  // empty: routes in the main table (any interface)
  std::uint32_t route_table = 5100;          // policy table of the routes when interfaces are given
  std::uint32_t rule_priority = 5100;        // priority of the FIB rules that select that table
  std::uint32_t workers = 0;                 // event loops (threads) of the data path; 0: auto
  TunConfig tun;
  ListenConfig listen;
  FudpSettings fudp;                         // defaults of every peer's FUDP block
  std::vector<Peer> peers;
  std::vector<Route> routes;
  LoggingConfig logging;
  friend bool operator==(const GatewayConfig&, const GatewayConfig&) = default;
};

}  // namespace ncgw::config
