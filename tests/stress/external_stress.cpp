// SPDX-License-Identifier: MIT
// 8 outside threads calling join and scope on the global pool at once.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "fib.hpp"
#include "test_support.hpp"
#include "weft/weft.hpp"

using weft_test::par_fib;

TEST_CASE("8 external threads use join and scope concurrently", "[external][stress]") {
  const std::uint64_t rounds = weft_test::stress_iters(200);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (std::uint64_t r = 0; r < rounds; ++r) {
        if (par_fib(12 + t % 4) != (t % 4 == 0 ? 144 : t % 4 == 1 ? 233 : t % 4 == 2 ? 377 : 610))
          wrong.fetch_add(1);
        std::atomic<int> n{0};
        weft::scope([&](auto& s) {
          for (int i = 0; i < 20; ++i) s.spawn([&] { n.fetch_add(1); });
        });
        if (n.load() != 20) wrong.fetch_add(1);
        auto [a, b] = weft::join([] { return 1; }, [] { return 2; });
        if (a + b != 3) wrong.fetch_add(1);
      }
    });
  for (auto& th : threads) th.join();
  REQUIRE(wrong.load() == 0);
}
