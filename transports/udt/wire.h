// UDT4 4.11 wire constants, in one place. Sources: the reference library's core.cpp, packet.cpp,
// ccc.cpp, window.cpp, queue.cpp (UDT 4.11, Debian libudt-dev), and paper 004 section 3 (the
// library wins where they differ; docs/udt-wire.md).
#pragma once
#include <cstdint>

namespace ncgw::udt::wire {

// --- Framing (packet.cpp: CPacket) ---
inline constexpr std::size_t kHeaderSize = 16;            // four 32-bit words, network order
inline constexpr std::uint32_t kControlBit = 0x80000000u;  // word0 top bit: control packet
inline constexpr std::uint32_t kIpUdpOverhead = 28;        // MSS counts IPv4 (20) + UDP (8) headers (the
                                                           // library assumes IPv4; a payload it sends
                                                           // is at most MSS - 28 - 16 on any family)
inline constexpr std::uint32_t kIpv6UdpOverhead = 48;      // IPv6 (40) + UDP (8): what we subtract on IPv6
inline constexpr std::uint32_t kDefaultMss = 1500;
inline constexpr std::uint32_t kMinMss = kIpUdpOverhead + 48 + kHeaderSize;  // setOpt(UDT_MSS) floor-ish

// --- Sequence and message numbers (common.h: CSeqNo, CMsgNo, CAckNo) ---
inline constexpr std::int32_t kMaxSeqNo = 0x7FFFFFFF;      // 31-bit sequence space
inline constexpr std::int32_t kSeqNoThreshold = 0x3FFFFFFF; // comparison window
inline constexpr std::int32_t kMaxAckSeqNo = 0x7FFFFFFF;   // ACK sequence numbers (from 1)
inline constexpr std::int32_t kMaxMsgNo = 0x1FFFFFFF;      // 29-bit message numbers, 1..kMaxMsgNo-1
inline constexpr std::uint32_t kMsgNoMask = 0x1FFFFFFFu;
inline constexpr std::uint32_t kBoundaryFirst = 0x80000000u;  // word1 bit 31: first packet of message
inline constexpr std::uint32_t kBoundaryLast = 0x40000000u;   // word1 bit 30: last packet of message
inline constexpr std::uint32_t kInOrderBit = 0x20000000u;     // word1 bit 29: deliver in order

// --- Control types (core.cpp sendCtrl/processCtrl) ---
enum class ControlType : std::uint16_t {
  handshake = 0,
  keepalive = 1,
  ack = 2,
  nak = 3,
  congestion_warning = 4,  // understood, never sent by the library
  shutdown = 5,
  ack2 = 6,
  drop_request = 7,        // message drop request
  peer_error = 8,          // "an error happened at the peer" (recvfile failure)
  user_defined = 0x7FFF,   // extended type in the low 16 bits of word0
};
inline constexpr std::uint32_t kNakRangeBit = 0x80000000u;  // NAK word starts a range [a, next]
inline constexpr std::size_t kEmptyControlPad = 4;          // content-less types carry 4 zero bytes

// --- Handshake (packet.cpp: CHandShake, 12 words = 48 bytes) ---
inline constexpr std::size_t kHandshakeSize = 48;
inline constexpr std::int32_t kUdtVersion = 4;
inline constexpr std::int32_t kSockStream = 1;   // UDT_STREAM
inline constexpr std::int32_t kSockDgram = 2;    // UDT_DGRAM (message mode)
inline constexpr std::int32_t kReqCaller = 1;        // regular connection request
inline constexpr std::int32_t kReqRendezvous = 0;    // rendezvous request
inline constexpr std::int32_t kReqResponse = -1;     // response / second caller request
inline constexpr std::int32_t kReqRendezvousAck = -2;  // answer to late rendezvous handshakes
inline constexpr std::int32_t kReqRejected = 1002;   // version or socket type mismatch
inline constexpr std::uint32_t kDefaultFlightFlagSize = 25600;  // UDT_FC default
inline constexpr std::uint32_t kMinFlightFlagSize = 32;
// ncgw, not the library: SHUTDOWN is sent this many times back to back. The library sends it once,
// so at 2% loss about 1 close in 50 left the peer waiting for its idle timeout (~46 s) with all data
// in hand. Duplicates are harmless: a closed connection ignores them.
inline constexpr int kShutdownCopies = 3;
inline constexpr std::int64_t kHandshakeRetryUs = 250'000;      // "at most 1 request per 250ms"
inline constexpr std::int64_t kConnectTimeoutUs = 3'000'000;    // 4.11: 3 s
inline constexpr std::int64_t kRendezvousTimeoutUs = 30'000'000;
inline constexpr std::int64_t kCookieBucketUs = 60'000'000;     // SYN cookie secret per minute

// --- ACK (core.cpp sendCtrl(2)) ---
inline constexpr std::size_t kAckLightSize = 4;    // ACK number only, every 64 packets
inline constexpr std::size_t kAckShortSize = 16;   // + RTT, RTT variance, available buffer
inline constexpr std::size_t kAckFullSize = 24;    // + arrival rate, link capacity
inline constexpr std::uint32_t kLightAckPackets = 64;  // m_iSelfClockInterval
inline constexpr std::int32_t kMinAdvertisedBuffer = 2;
inline constexpr std::size_t kAckWindowSize = 1024;   // CACKWindow(1024)

// --- Timers (core.cpp open/checkTimers) ---
inline constexpr std::int64_t kSynUs = 10'000;            // SYN = rate control and ACK interval
inline constexpr std::int64_t kInitialRttUs = 100'000;     // 10 x SYN
inline constexpr std::int64_t kInitialRttVarUs = 50'000;
inline constexpr std::int64_t kMinExpUs = 300'000;         // EXP floor (per EXP count)
inline constexpr std::int64_t kMinNakUs = 300'000;         // periodic NAK floor (disabled in 4.11)
inline constexpr std::int32_t kBrokenExpCount = 16;        // broken after > 16 EXPs ...
inline constexpr std::int64_t kBrokenSilenceUs = 5'000'000;  // ... and > 5 s of silence

// --- Packet-pair probing and arrival windows (window.cpp: CPktTimeWindow(16, 64)) ---
inline constexpr std::uint32_t kProbeMask = 0xF;   // seq & 0xF == 0 starts a back-to-back pair
inline constexpr int kArrivalWindow = 16;
inline constexpr int kProbeWindow = 64;

// --- CUDTCC (ccc.cpp) ---
inline constexpr double kInitialCwnd = 16.0;
inline constexpr double kInitialPeriodUs = 1.0;
inline constexpr double kMinIncrease = 0.01;        // packets per SYN floor (2012 change)
inline constexpr double kIncreaseBeta = 0.0000015;  // 1.5e-6
inline constexpr double kDecreaseFactor = 1.125;
inline constexpr int kMaxDecreasesPerEpoch = 5;     // 0.875^5 ~ 0.51
inline constexpr std::int32_t kInitialDeliveryRate = 16;  // m_iDeliveryRate
inline constexpr std::int32_t kInitialBandwidth = 1;      // m_iBandwidth

// --- PaUDT's window rule (paper 000 section 3, Figure 1; initial window section 5.1.3) ---
inline constexpr int kPaudtNaksPerDecrease = 3;   // three NAKs: retransmit, halve ssthresh, cwnd = it
inline constexpr std::int32_t kDefaultInitialWindow = 16;  // also CUDTCC's initial window

}  // namespace ncgw::udt::wire
