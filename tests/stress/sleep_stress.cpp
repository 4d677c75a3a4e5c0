// SPDX-License-Identifier: MIT
// Sleep and wake: bursts after the pool fell asleep. A lost wake-up hangs (ctest timeout).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {
std::uint64_t tree(std::uint64_t n) {
  if (n <= 1) return n;
  auto [a, b] = weft::join([&] { return tree(n / 2); }, [&] { return tree(n - n / 2); });
  return a + b;
}
}  // namespace

TEST_CASE("10,000 bursts, each after every worker fell asleep", "[sleep][stress]") {
  const std::uint64_t bursts = weft_test::stress_iters(10'000);
  // ctest sets WEFT_NUM_THREADS; run by hand without it, the global pool's default size.
  const char* const env = std::getenv("WEFT_NUM_THREADS");
  const std::size_t threads =
      env != nullptr ? std::strtoul(env, nullptr, 10) : weft::num_threads();
  weft::thread_pool pool({.num_threads = threads + 1});  // at least one background thread
  const std::size_t background = pool.num_threads() - 1;
  std::uint64_t not_asleep = 0;
  for (std::uint64_t b = 0; b < bursts; ++b) {
    // Wait (without a clock) until every background worker is blocked in the kernel.
    if (!weft_test::eventually([&] { return pool.stats().sleeping == background; })) ++not_asleep;
    const std::uint64_t n = 64 + b % 64;
    if (pool.install([&] { return tree(n); }) != n) FAIL("wrong result");
  }
  REQUIRE(not_asleep == 0);
  REQUIRE(weft_test::eventually([&] { return pool.stats().sleeping == background; }));
}
