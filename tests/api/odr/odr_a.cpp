// SPDX-License-Identifier: MIT
// Two translation units that both include weft/weft.hpp, linked into one program
// (range-v3 multiple1/2.cpp): no duplicate symbols, and the inline state is one object.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstddef>

#include "odr.hpp"
#include "weft/weft.hpp"

namespace weft_odr {
long leaf_one() { return 1; }
long leaf_two() { return 2; }

static long fib_a(int n) {
  if (n < 2) return n;
  auto [x, y] = weft::join([&] { return fib_a(n - 1); }, [&] { return fib_a(n - 2); });
  return x + y;
}
}  // namespace weft_odr

using namespace weft_odr;

TEST_CASE("join and scope work alike from two translation units", "[odr][requirement]") {
  REQUIRE(fib_a(20) == 6765);
  REQUIRE(fib_b(20) == 6765);
  REQUIRE(scope_sum_b(1000) == 499500);
  auto [x, y] = weft::join(leaf_one, leaf_two);  // the instance odr_b.cpp also has
  REQUIRE(x + y == 3);
  REQUIRE(join_leaves_b() == 3);
  weft::thread_pool pool({.num_threads = 2});
  REQUIRE(pool.install([] { return fib_a(18) + fib_b(18); }) == 2 * 2584);
}

TEST_CASE("both translation units see one current worker and one global pool",
          "[odr][requirement]") {
  REQUIRE(num_threads_in_b() == weft::num_threads());
  REQUIRE_FALSE(index_in_b().has_value());
  weft::thread_pool pool({.num_threads = 2});
  std::atomic<int> mismatches{0};  // Catch2 assertions are not thread-safe: count, then check
  const auto check = [&] {
    const auto here = weft::thread_index();
    if (!here.has_value() || index_in_b() != here) ++mismatches;
  };
  pool.install([&] {
    weft::scope([&](auto& s) {
      for (int i = 0; i < 64; ++i) s.spawn(check);
    });
  });
  REQUIRE(mismatches == 0);
}
