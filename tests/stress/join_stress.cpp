// SPDX-License-Identifier: MIT
// join and scope under load: exact results, exceptions at random depths, pool reuse.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {
std::uint64_t tree_sum(std::uint64_t lo, std::uint64_t hi) {
  if (hi - lo <= 1) return lo;
  const std::uint64_t mid = lo + (hi - lo) / 2;
  auto [a, b] = weft::join([&] { return tree_sum(lo, mid); }, [&] { return tree_sum(mid, hi); });
  return a + b;
}

int throws_at(std::uint64_t lo, std::uint64_t hi, std::uint64_t bad, std::atomic<std::uint64_t>& ran) {
  if (hi - lo <= 1) {
    ran.fetch_add(1, std::memory_order_relaxed);
    if (lo == bad) throw weft_test::test_error{static_cast<int>(lo)};
    return 1;
  }
  const std::uint64_t mid = lo + (hi - lo) / 2;
  auto [a, b] = weft::join([&] { return throws_at(lo, mid, bad, ran); },
                           [&] { return throws_at(mid, hi, bad, ran); });
  return a + b;
}
}  // namespace

TEST_CASE("join trees return exact sums", "[join][stress]") {
  const std::uint64_t rounds = weft_test::stress_iters(200);
  for (std::uint64_t r = 0; r < rounds; ++r) {
    const std::uint64_t n = 1000 + r * 37;
    REQUIRE(tree_sum(0, n) == n * (n - 1) / 2);
  }
}

TEST_CASE("exceptions at random leaves: every leaf still ran", "[join][stress][exceptions]") {
  const std::uint64_t rounds = weft_test::stress_iters(200);
  auto rng = weft_test::seeded_rng(3);
  for (std::uint64_t r = 0; r < rounds; ++r) {
    const std::uint64_t n = 512, bad = rng() % n;
    std::atomic<std::uint64_t> ran{0};
    try {
      throws_at(0, n, bad, ran);
      FAIL("no exception");
    } catch (const weft_test::test_error& e) {
      REQUIRE(static_cast<std::uint64_t>(e.depth) == bad);
    }
    REQUIRE(ran.load() == n);
  }
  REQUIRE(tree_sum(0, 10000) == 10000ull * 9999 / 2);
}

TEST_CASE("scope with many tasks spawning joins", "[scope][stress]") {
  const std::uint64_t rounds = weft_test::stress_iters(50);
  for (std::uint64_t r = 0; r < rounds; ++r) {
    std::atomic<std::uint64_t> sum{0};
    weft::scope([&](auto& s) {
      for (std::uint64_t i = 0; i < 500; ++i)
        s.spawn([&sum, i] { sum.fetch_add(tree_sum(0, 64) + i, std::memory_order_relaxed); });
    });
    REQUIRE(sum.load() == 500ull * (64 * 63 / 2) + 500ull * 499 / 2);
  }
}
