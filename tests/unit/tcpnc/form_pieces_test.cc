// Forms in pieces: a form longer than a source goes as consecutive pieces and comes back byte for
// byte; whole forms pass through untouched; pieces out of turn are dropped and counted, and the
// next whole form still gets through.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "transports/tcpnc/form_pieces.h"
#include "transports/tcpnc/wire.h"

namespace ncgw::tcpnc {
namespace {

using Bytes = std::vector<std::uint8_t>;

// A form of `n` bytes starting with a compressed form's first byte.
Bytes form_of(std::size_t n, std::uint8_t seed) {
  Bytes f(n);
  for (std::size_t i = 0; i < n; ++i) f[i] = static_cast<std::uint8_t>(i * 7 + seed);
  f[0] = kHcFormCompressed << 4;
  return f;
}

// The sources `splitter` makes of `form` with sources of at most `limit` bytes.
std::vector<Bytes> split(FormSplitter& splitter, const Bytes& form, std::size_t limit) {
  std::copy(form.begin(), form.end(), splitter.form_buffer().begin());
  splitter.load(form.size(), limit);
  std::vector<Bytes> out;
  while (splitter.pending()) {
    const auto s = splitter.next();
    EXPECT_LE(s.size(), limit);
    out.emplace_back(s.begin(), s.end());
  }
  return out;
}

TEST(FormPieces, AFormThatFitsGoesWhole) {
  FormSplitter splitter(2000);
  FormJoiner joiner(2000);
  const Bytes form = form_of(1400, 1);
  const auto sources = split(splitter, form, 1400);
  ASSERT_EQ(sources.size(), 1u);
  EXPECT_EQ(sources[0], form);
  const auto back = joiner.add(sources[0]);
  ASSERT_TRUE(back);
  EXPECT_EQ(Bytes(back->begin(), back->end()), form);
  EXPECT_EQ(splitter.forms_split(), 0u);
}

TEST(FormPieces, ALongFormGoesInPiecesAndIsJoined) {
  FormSplitter splitter(4000);
  FormJoiner joiner(4000);
  for (const std::size_t size : {1401u, 1442u, 2796u, 2797u, 3500u}) {
    const Bytes form = form_of(size, static_cast<std::uint8_t>(size));
    const auto sources = split(splitter, form, 1400);
    EXPECT_EQ(sources.size(), (size + 1397) / 1398) << size;
    std::optional<Bytes> back;
    for (std::size_t i = 0; i < sources.size(); ++i) {
      EXPECT_EQ(sources[i][0] >> 4, kHcFormPiece);
      const auto r = joiner.add(sources[i]);
      EXPECT_EQ(r.has_value(), i + 1 == sources.size());
      if (r) back.emplace(r->begin(), r->end());
    }
    ASSERT_TRUE(back) << size;
    EXPECT_EQ(*back, form) << size;
  }
  EXPECT_EQ(joiner.counters().joined, 5u);
  EXPECT_EQ(joiner.counters().broken, 0u);
}

TEST(FormPieces, PiecesOutOfTurnAreDroppedAndTheStreamRecovers) {
  FormSplitter splitter(4000);
  FormJoiner joiner(4000);
  const auto a = split(splitter, form_of(3000, 1), 1400);  // three pieces
  const auto b = split(splitter, form_of(2000, 2), 1400);  // two pieces
  ASSERT_EQ(a.size(), 3u);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_FALSE(joiner.add(a[0]));
  EXPECT_FALSE(joiner.add(a[2]));   // a[1] lost: the last piece cannot complete the form
  EXPECT_FALSE(joiner.add(b[1]));   // a last piece with no first one
  EXPECT_EQ(joiner.counters().broken, 2u);
  EXPECT_FALSE(joiner.add(b[0]));
  EXPECT_FALSE(joiner.add(a[1]));   // a middle piece of another form: its serial differs
  EXPECT_EQ(joiner.counters().broken, 3u);
  const Bytes whole = form_of(100, 3);
  const auto r = joiner.add(whole);  // whole forms always pass
  ASSERT_TRUE(r);
  EXPECT_EQ(Bytes(r->begin(), r->end()), whole);
  EXPECT_EQ(joiner.counters().joined, 0u);
}

TEST(FormPieces, AWholeFormCutsAnUnfinishedOne) {
  FormSplitter splitter(4000);
  FormJoiner joiner(4000);
  const auto a = split(splitter, form_of(2000, 1), 1400);
  EXPECT_FALSE(joiner.add(a[0]));
  EXPECT_TRUE(joiner.add(form_of(50, 4)));
  EXPECT_EQ(joiner.counters().broken, 1u);
  EXPECT_FALSE(joiner.add(a[1]));  // its first piece was given up
  EXPECT_EQ(joiner.counters().broken, 2u);
}

TEST(FormPieces, AJoinedFormLongerThanTheBufferIsDropped) {
  FormSplitter splitter(4000);
  FormJoiner joiner(2000);
  for (const auto& s : split(splitter, form_of(3000, 1), 1400)) EXPECT_FALSE(joiner.add(s));
  EXPECT_GE(joiner.counters().broken, 1u);
  EXPECT_EQ(joiner.counters().joined, 0u);
  EXPECT_FALSE(joiner.add(Bytes{static_cast<std::uint8_t>(kHcFormPiece << 4 | kHcPieceFirst)}));  // prefix only
}

}  // namespace
}  // namespace ncgw::tcpnc
