// Checks that the secure layer's hot path does not allocate: two secured plain cores exchange
// packets while a global operator new counts allocations, across several rekeys. Stats() may
// allocate and is not called.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "core_pair.h"

#include "tests/unit/common/alloc_counter.h"

namespace ncgw::crypto {
namespace {

using namespace std::chrono_literals;

// Moves packets both ways for 300 s of virtual time (two rekeys at 120 s) and checks that the
// steady state allocated nothing.
void expect_no_allocation(bool batched) {
  test::CorePair p;
  p.batched = batched;
  const auto pkt = test::ip_packet(1200, 9);
  for (int i = 0; i < 100; ++i) {
    p.now += 1ms;
    (void)p.a->send(pkt, p.now);
    p.step();
  }
  const auto epoch = p.a->session().key_epoch();
  g_counting = true;
  for (int i = 0; i < 300'000; ++i) {
    p.now += 1ms;
    (void)p.a->send(pkt, p.now);
    (void)p.b->send(pkt, p.now);
    p.step();
  }
  g_counting = false;
  EXPECT_EQ(g_allocations.load(), 0u);
  EXPECT_GE(p.a->session().key_epoch(), epoch + 2);
  EXPECT_GE(p.delivered_b, 299'000u);
}

TEST(SecureAlloc, SteadyStateAndRekeysAllocateNothing) { expect_no_allocation(false); }

TEST(SecureAlloc, BatchCallsAllocateNothing) {
  g_allocations = 0;
  expect_no_allocation(true);
}

}  // namespace
}  // namespace ncgw::crypto
