// SPDX-License-Identifier: MIT
// 8 outside threads calling join and scope on the global pool at once.
#include <catch2/catch.hpp>

#include <atomic>
#include <barrier>
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

// The caller seat's bias (src/sched/seat.cpp): in each round one outside thread takes a pool 100
// times in a row, long enough to earn the bias (after 8, 16, 32 and 64 takes in its first
// four rounds), and the three others each take it twice once it is halfway, revoking the
// bias with its owner inside or outside. At most one thread runs as worker 0 at any moment
// (B1), and every install runs.
TEST_CASE("outside threads take turns on the seat in bursts", "[external][stress]") {
  const std::uint64_t rounds = weft_test::stress_iters(12);
  constexpr int burst = 100;
  for (std::size_t pool_threads : {1, 2, 7}) {
    weft::thread_pool pool({.num_threads = pool_threads});
    std::atomic<int> at_index_0{0};
    std::atomic<int> overlaps{0};
    std::atomic<std::uint64_t> runs{0};
    std::atomic<int> burst_done{0};
    std::barrier round_start(4);
    const auto one_install = [&] {
      pool.install([&] {
        const bool seat = weft::thread_index() == std::size_t{0};
        if (seat && at_index_0.fetch_add(1) != 0) overlaps.fetch_add(1);
        runs.fetch_add(1, std::memory_order_relaxed);
        if (seat) at_index_0.fetch_sub(1);
      });
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        for (std::uint64_t r = 0; r < rounds; ++r) {
          round_start.arrive_and_wait();
          if (static_cast<int>(r % 4) == t) {
            for (int i = 0; i < burst; ++i) {
              one_install();
              burst_done.store(i + 1);
            }
            // And a call that forks, so that jobs published from worker 0 meet a revocation.
            auto [a, b] = pool.install([] { return weft::join([] { return 1; }, [] { return 2; }); });
            if (a + b != 3) overlaps.fetch_add(1);
          } else {
            while (burst_done.load() < burst / 2) std::this_thread::yield();
            one_install();
            one_install();
          }
          round_start.arrive_and_wait();
          if (t == 0) burst_done.store(0);
        }
      });
    for (auto& th : threads) th.join();
    REQUIRE(overlaps.load() == 0);
    REQUIRE(runs.load() == rounds * (burst + 3 * 2));
  }
}
