#include "tests/unit/common/alloc_counter.h"

#include <cstdlib>
#include <new>

namespace ncgw::testing {
std::atomic<bool> g_counting{false};
std::atomic<std::uint64_t> g_allocations{0};
}  // namespace ncgw::testing

void* operator new(std::size_t n) {
  if (ncgw::testing::g_counting.load(std::memory_order_relaxed)) {
    ncgw::testing::g_allocations.fetch_add(1, std::memory_order_relaxed);
  }
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
