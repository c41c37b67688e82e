// Forms longer than one coded source, carried as consecutive sources (docs/tcpnc-wire.md, "Forms
// in pieces"). With header compression the TUN MTU assumes a bulk TCP segment's header travels
// compressed; a form that does not fit one source after all (a context's full header, a packet
// that does not compress) goes in pieces rather than being refused. The TCP/NC stream delivers
// sources once and in order, so the receiver only has to join consecutive pieces. Sans-I/O;
// buffers are allocated once.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace ncgw::tcpnc {

// The sending end: holds the form being carried and hands it out one source at a time.
class FormSplitter {
 public:
  // Room for forms up to `max_form` bytes.
  explicit FormSplitter(std::size_t max_form);
  // Where the next form is written (max_form bytes).
  std::span<std::uint8_t> form_buffer() { return std::span<std::uint8_t>(buf_).subspan(kRoom); }
  // Starts carrying the `length` bytes written into form_buffer(), in sources of at most `limit`
  // bytes (limit > kHcPiecePrefix).
  void load(std::size_t length, std::size_t limit);
  // A form (or the rest of one) is waiting to go.
  bool pending() const { return next_ < end_; }
  // The next source: the whole form when it fits, else its next piece. Only while pending(); the
  // bytes stay valid until the next call (pieces are prefixed in place).
  std::span<const std::uint8_t> next();
  // Forgets what is pending (a session ends).
  void clear() { next_ = end_ = 0; }
  std::uint64_t forms_split() const { return forms_split_; }
  std::uint64_t pieces() const { return pieces_; }

 private:
  static constexpr std::size_t kRoom = 2;  // kHcPiecePrefix: the first piece's prefix goes here
  std::vector<std::uint8_t> buf_;
  std::size_t next_ = 0, end_ = 0;  // the bytes of buf_ still to go
  std::size_t limit_ = 0;
  bool split_ = false;              // the loaded form goes in pieces
  std::uint8_t serial_ = 0;         // serial of the form being split
  unsigned index_ = 0;              // pieces of it handed out
  std::uint64_t forms_split_ = 0, pieces_ = 0;
};

// What a FormJoiner threw away.
struct FormJoinerCounters {
  std::uint64_t joined = 0;   // forms rebuilt from pieces
  std::uint64_t broken = 0;   // pieces dropped: out of turn, a serial that does not match, too long
};

// The receiving end: passes whole forms through and joins pieces.
class FormJoiner {
 public:
  explicit FormJoiner(std::size_t max_form);
  // The form `source` completes: itself if it is not a piece, the joined form after a last piece,
  // nothing while a form is incomplete or when a piece is dropped (counted). The span stays valid
  // until the next call.
  std::optional<std::span<const std::uint8_t>> add(std::span<const std::uint8_t> source);
  // Forgets a form in progress (a session ends).
  void reset() { length_ = 0; open_ = false; }
  const FormJoinerCounters& counters() const { return ctr_; }

 private:
  std::vector<std::uint8_t> buf_;
  std::size_t length_ = 0;   // bytes of the form in progress
  bool open_ = false;        // a first piece arrived and its last has not
  std::uint8_t serial_ = 0;  // the serial of the form in progress
  unsigned index_ = 0;       // pieces of it joined
  FormJoinerCounters ctr_;
};

}  // namespace ncgw::tcpnc
