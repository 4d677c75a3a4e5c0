// SPDX-License-Identifier: MIT
// Pools created and destroyed in a loop, used in between.
#include <catch2/catch.hpp>

#include <cstdint>

#include "fib.hpp"
#include "test_support.hpp"
#include "weft/weft.hpp"

using weft_test::par_fib;

TEST_CASE("1,000 pool create/destroy cycles", "[pool][stress]") {
  const std::uint64_t cycles = weft_test::stress_iters(1000);
  for (std::uint64_t c = 0; c < cycles; ++c) {
    weft::thread_pool pool({.num_threads = 1 + c % 4});
    if (c % 2 == 0) REQUIRE(pool.install([] { return par_fib(10); }) == 55);
  }
}
