#include "transports/tcpnc/cw_book.h"

#include <algorithm>
#include <cmath>

namespace ncgw::tcpnc {

CwBook::CwBook(const coding::EncoderConfig& cfg) : cfg_(cfg), cws_(cfg.max_open) {}

void CwBook::start(std::uint64_t salt, unsigned peer_max_open) {
  cfg_.salt = salt;
  enc_.emplace(cfg_);  // allocates: once per session, never per packet
  for (auto& c : cws_) c = CwState{};
  peer_max_open_ = peer_max_open;
}

std::uint64_t CwBook::stop(std::uint64_t seen) {
  const std::uint64_t dropped = unseen(seen);
  enc_.reset();
  for (auto& c : cws_) c = CwState{};
  return dropped;
}

coding::CwEncoder* CwBook::open(unsigned n, unsigned k) {
  if (enc_->full()) return nullptr;
  const std::uint64_t window = std::min<std::uint64_t>(cfg_.max_open, peer_max_open_);
  if (enc_->held() > 0 && enc_->next_id() - enc_->oldest_id() >= window) return nullptr;
  coding::CwEncoder* e = enc_->open(n, k);
  if (!e) return nullptr;
  CwState& c = state(e->cw_id());
  c = CwState{};
  c.id = e->cw_id();
  c.planned_k = c.urgent_k = k;
  return e;
}

CwBook::Iterator CwBook::Range::begin() const {
  const coding::Encoder& e = *book.enc_;
  return Iterator(book, e.held() > 0 ? e.oldest_id() : e.next_id(), e.next_id());
}

CwBook::Iterator CwBook::Range::end() const {
  const std::uint64_t next = book.enc_->next_id();
  return Iterator(book, next, next);
}

unsigned CwBook::missing(const OpenCw& c, std::uint64_t seen) {
  const unsigned n = c.enc.count();
  if (c.st.ack_complete || seen >= c.enc.base() + n) return 0;
  std::uint64_t rank =
      c.st.ack_rank >= 0 ? static_cast<std::uint64_t>(c.st.ack_rank) : std::min<std::uint64_t>(c.st.acked, n);
  if (seen > c.enc.base()) rank = std::max<std::uint64_t>(rank, seen - c.enc.base());
  return rank >= n ? 0 : static_cast<unsigned>(n - rank);
}

unsigned CwBook::retransmit_need(const OpenCw& c, std::uint64_t seen, double loss_rate) {
  if (!c.enc.closed() || c.st.repairs_sent < c.st.planned_k) return 0;  // planned combinations first
  const unsigned m = missing(c, seen);
  if (m == 0) return 0;
  // While planned combinations are in flight, only a certain deficit (more DoF missing than
  // combinations that may still arrive) triggers a retransmission: the plan may still cover it.
  if (c.st.planned_in_flight > 0) return m > c.st.in_flight ? m - c.st.in_flight : 0;
  // Enhanced retransmission: as many new combinations as DoF missing, plus the expected loss of
  // the retransmissions themselves.
  const double e_rate = std::min(loss_rate, 0.5);
  const unsigned margin = static_cast<unsigned>(std::lround(m * e_rate / (1.0 - e_rate)));
  const unsigned want = m + margin;
  return want > c.st.in_flight ? want - c.st.in_flight : 0;
}

}  // namespace ncgw::tcpnc
