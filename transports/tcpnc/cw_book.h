// The sender's book of coding windows (CWs): the encoder's CW slots (coding/encoder.h) and, beside
// each, what the sender knows of it (planned repairs, combinations in flight and acknowledged, the
// rank the receiver reported). It is the one owner of per-CW state and has the one iterator over
// the open CWs; the degrees-of-freedom accounting that enhanced retransmission needs (paper 002
// section 2.1) lives here too.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "coding/encoder.h"
#include "transports/common/time.h"

namespace ncgw::tcpnc {

using transport::TimePoint;

// What the sender knows of one CW besides its encoder.
struct CwState {
  std::uint64_t id = UINT64_MAX;
  unsigned planned_k = 0;          // repairs planned after the sources
  unsigned urgent_k = 0;           // of which sent before new sources; the rest fill idle slots
  unsigned repairs_sent = 0;       // repairs of any kind sent (next repair number)
  unsigned in_flight = 0;          // combinations of this CW in flight
  unsigned planned_in_flight = 0;  // of which planned ones
  unsigned acked = 0;              // combinations acknowledged (upper bound on the rank)
  int ack_rank = -1;               // rank the newest ACK reported (-1: not listed)
  bool ack_complete = false;       // the newest ACK said decoded
  bool congestion_checked = false; // the "planned all resolved" check ran
  bool idle_plan = false;          // closed by a pause with repairs for the idle target
  TimePoint last_planned_sent{};
  TimePoint opened{};              // when its first source was sent
};

// One open CW as the book's iterator yields it.
struct OpenCw {
  std::uint64_t id;
  coding::CwEncoder& enc;
  CwState& st;
};

// The CW slots of one sending stream.
class CwBook {
 public:
  // `cfg` sizes the encoder (max_open slots, per-CW limits); the encoder itself is allocated at
  // start(), once per session.
  explicit CwBook(const coding::EncoderConfig& cfg);

  // A new stream toward a decoder that holds `peer_max_open` CWs; `salt` seeds the repairs.
  void start(std::uint64_t salt, unsigned peer_max_open);
  // Ends the stream; returns how many added sources the receiver had not seen (`seen`).
  std::uint64_t stop(std::uint64_t seen);
  bool active() const { return enc_.has_value(); }
  coding::Encoder& encoder() { return *enc_; }
  const coding::Encoder& encoder() const { return *enc_; }
  // Largest CW the encoder takes.
  unsigned max_n() const { return static_cast<unsigned>(cfg_.limits.max_n); }

  // Opens the next CW with plan (n, k) when a slot is free and the peer can hold one more;
  // else nullptr.
  coding::CwEncoder* open(unsigned n, unsigned k);
  // The CW accepting sources, if any.
  coding::CwEncoder* filling() { return enc_->filling(); }
  // State slot of CW `id` (whatever CW last used it).
  CwState& state(std::uint64_t id) { return cws_[id % cws_.size()]; }
  // State of CW `id` if the slot still belongs to it, else nullptr.
  CwState* held(std::uint64_t id) {
    CwState& c = state(id);
    return c.id == id ? &c : nullptr;
  }
  // Sources added to CWs and not yet seen by the receiver.
  std::uint64_t unseen(std::uint64_t seen) const { return enc_ ? enc_->next_source() - seen : 0; }

  // Iterator over the open CWs (held by the encoder, state slot theirs), oldest first.
  class Iterator {
   public:
    Iterator(CwBook& book, std::uint64_t id, std::uint64_t end) : book_(&book), id_(id), end_(end) { skip(); }
    OpenCw operator*() const { return {id_, *book_->enc_->find(id_), book_->state(id_)}; }
    Iterator& operator++() { ++id_; skip(); return *this; }
    bool operator!=(const Iterator& o) const { return id_ != o.id_; }

   private:
    void skip() { while (id_ < end_ && (!book_->enc_->find(id_) || book_->state(id_).id != id_)) ++id_; }
    CwBook* book_;
    std::uint64_t id_, end_;
  };
  // The open CWs, for range-for.
  struct Range {
    CwBook& book;
    Iterator begin() const;
    Iterator end() const;
  };
  Range open_cws() { return Range{*this}; }

  // CW `id` if it is open (held by the encoder, state slot its own).
  std::optional<OpenCw> open_cw(std::uint64_t id) {
    coding::CwEncoder* e = enc_->find(id);
    if (!e || state(id).id != id) return std::nullopt;
    return OpenCw{id, *e, state(id)};
  }

  // Degrees of freedom the receiver still misses in a CW, from its reports and `seen`.
  static unsigned missing(const OpenCw& c, std::uint64_t seen);
  // New combinations a closed CW is owed now (enhanced retransmission: the missing DoF plus the
  // expected loss of the retransmissions at `loss_rate`); 0 while planned ones may still cover it.
  static unsigned retransmit_need(const OpenCw& c, std::uint64_t seen, double loss_rate);

 private:
  coding::EncoderConfig cfg_;
  std::optional<coding::Encoder> enc_;
  std::vector<CwState> cws_;
  unsigned peer_max_open_ = 1;
};

}  // namespace ncgw::tcpnc
