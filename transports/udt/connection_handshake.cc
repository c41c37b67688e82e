// Connection setup: caller (request type 1, cookie, -1), listener side (accept), rendezvous (0, -1, -2).
#include <algorithm>

#include "transports/udt/connection.h"
#include "transports/udt/seq.h"

namespace ncgw::udt {

const char* to_string(ConnState s) {
  switch (s) {
    case ConnState::connecting: return "connecting";
    case ConnState::connected: return "connected";
    case ConnState::closed: return "closed";
    case ConnState::broken: return "broken";
    case ConnState::rejected: return "rejected";
    case ConnState::timed_out: return "timed_out";
  }
  return "unknown";
}

Connection::Connection(const ConnectionSettings& s, std::int32_t self_id, std::uint64_t seed, TimePoint now)
    : settings_(s), self_id_(self_id), seed_(seed), start_(now), mss_(s.mss),
      payload_(s.mss - s.ip_udp_overhead - static_cast<std::uint32_t>(wire::kHeaderSize)),
      sbuf_(s.send_buffer_packets, payload_), sloss_(s.send_buffer_packets),
      // Receive slots take the largest payload a peer may send: the library subtracts IPv4's 28
      // bytes whatever the family.
      rcv_(s.recv_buffer_packets, s.mss - wire::kIpUdpOverhead - static_cast<std::uint32_t>(wire::kHeaderSize)) {
  transport::Rng rng(seed);
  isn_ = s.initial_seq ? (*s.initial_seq & wire::kMaxSeqNo)
                       : static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(wire::kMaxSeqNo)));
  seed_ = rng.next();
}

Handshake Connection::make_request() const {
  Handshake h;
  h.version = wire::kUdtVersion;
  h.sock_type = static_cast<std::int32_t>(settings_.type);
  h.isn = isn_;
  h.mss = static_cast<std::int32_t>(mss_);
  h.flight_flag_size = static_cast<std::int32_t>(std::min(settings_.recv_buffer_packets, settings_.flight_flag_size));
  h.socket_id = self_id_;
  h.peer_ip = peer_ip_words(peer_);
  return h;
}

void Connection::send_handshake(std::uint32_t dest, const Handshake& h) {
  ctrl_.commit(write_handshake(ctrl_.reserve(), dest, h));
}

static std::int64_t connect_timeout(const ConnectionSettings& s, bool rendezvous) {
  if (s.connect_timeout_us > 0) return s.connect_timeout_us;
  return rendezvous ? wire::kRendezvousTimeoutUs : wire::kConnectTimeoutUs;
}

void Connection::start_caller(const PeerAddress& peer, TimePoint now) {
  role_ = Role::caller;
  peer_ = peer;
  req_ = make_request();
  req_.req_type = wire::kReqCaller;
  send_handshake(0, req_);
  last_req_us_ = us(now);
  connect_deadline_us_ = us(now) + connect_timeout(settings_, false);
}

void Connection::start_rendezvous(const PeerAddress& peer, TimePoint now) {
  role_ = Role::rendezvous;
  peer_ = peer;
  req_ = make_request();
  req_.req_type = wire::kReqRendezvous;
  send_handshake(0, req_);
  last_req_us_ = us(now);
  connect_deadline_us_ = us(now) + connect_timeout(settings_, true);
}

void Connection::retry_handshake(TimePoint now) {
  if (us(now) > connect_deadline_us_) {
    state_ = ConnState::timed_out;
    return;
  }
  if (us(now) - last_req_us_ < wire::kHandshakeRetryUs) return;
  const std::uint32_t dest = (role_ == Role::rendezvous && have_res_) ? static_cast<std::uint32_t>(res_.socket_id) : 0;
  send_handshake(dest, req_);
  last_req_us_ = us(now);
}

void Connection::on_handshake_connecting(const Packet& p, TimePoint now) {
  const auto hs = parse_handshake(p.payload);
  if (!hs) return;
  if (role_ == Role::rendezvous) {
    if (hs->req_type == wire::kReqCaller) return;  // a regular caller does not talk to rendezvous
    res_ = *hs;
    have_res_ = true;
    if (req_.req_type == wire::kReqRendezvous || hs->req_type == wire::kReqRendezvous) {
      req_.req_type = wire::kReqResponse;
      send_handshake(static_cast<std::uint32_t>(res_.socket_id), req_);
      last_req_us_ = us(now);
      return;
    }
    establish(res_.isn, res_.socket_id, res_.mss, res_.flight_flag_size, now);
    // one more -1 lets a peer still waiting complete before our data arrives (the library's connector
    // would otherwise consume the first data packets as its completion signal)
    send_handshake(static_cast<std::uint32_t>(res_.socket_id), req_);
    return;
  }
  if (role_ != Role::caller) return;
  if (hs->req_type == wire::kReqCaller) {  // the listener's cookie
    req_.req_type = wire::kReqResponse;
    req_.cookie = hs->cookie;
    send_handshake(0, req_);
    last_req_us_ = us(now);
    return;
  }
  res_ = *hs;
  have_res_ = true;
  if (hs->req_type == wire::kReqRejected || hs->isn != isn_) {
    state_ = ConnState::rejected;
    return;
  }
  establish(hs->isn, hs->socket_id, hs->mss, hs->flight_flag_size, now);
}

void Connection::accept(const PeerAddress& peer, const Handshake& req, TimePoint now) {
  role_ = Role::listener;
  peer_ = peer;
  isn_ = req.isn;  // the listener adopts the caller's initial sequence number
  establish(req.isn, req.socket_id, req.mss, req.flight_flag_size, now);
  res_ = response_handshake(peer);
  send_handshake(static_cast<std::uint32_t>(peer_id_), res_);
  awaiting_caller_ = true;
}

Handshake Connection::repeated_answer() const {
  if (role_ == Role::listener) return res_;   // what accept() sent
  Handshake h = response_handshake(peer_);
  if (role_ == Role::rendezvous) h.req_type = wire::kReqRendezvousAck;
  return h;
}

Handshake Connection::response_handshake(const PeerAddress& peer) const {
  Handshake h = make_request();
  h.req_type = wire::kReqResponse;
  h.peer_ip = peer_ip_words(peer);
  return h;
}

void Connection::establish(std::int32_t peer_isn, std::int32_t peer_id, std::int32_t peer_mss, std::int32_t peer_fc,
                           TimePoint now) {
  if (peer_mss >= static_cast<std::int32_t>(wire::kMinMss) && static_cast<std::uint32_t>(peer_mss) < mss_) {
    mss_ = static_cast<std::uint32_t>(peer_mss);
  }
  payload_ = mss_ - settings_.ip_udp_overhead - static_cast<std::uint32_t>(wire::kHeaderSize);
  sbuf_.set_payload_size(payload_);
  flow_window_ = peer_fc > 0 ? peer_fc : 2;
  peer_id_ = peer_id;
  rcv_.start(peer_isn & wire::kMaxSeqNo);
  rcv_last_ack_ = rcv_last_ack_ack_ = peer_isn & wire::kMaxSeqNo;
  snd_last_ack_ = snd_last_data_ack_ = isn_;
  snd_curr_seq_ = seq::dec(isn_);
  cc_.init({settings_.congestion_control, snd_curr_seq_, flow_window_, static_cast<std::int32_t>(mss_),
            settings_.initial_window, now, seed_, settings_.max_decreases_per_epoch, settings_.send_buffer_packets});
  last_rsp_us_ = last_heard_us_ = last_full_ack_us_ = us(now);
  next_ack_us_ = us(now) + wire::kSynUs;
  arrival_.reset(us(now));
  next_send_ns_ = transport::ns_since_epoch(now);
  state_ = ConnState::connected;
}

void Connection::on_handshake_connected(const Packet& p) {
  const auto hs = parse_handshake(p.payload);
  if (!hs) return;
  const bool rdv = role_ == Role::rendezvous;
  if (hs->req_type > 0 || (rdv && hs->req_type != wire::kReqRendezvousAck)) {
    send_handshake(static_cast<std::uint32_t>(peer_id_), repeated_answer());  // the peer missed our answer
  }
}

}  // namespace ncgw::udt
