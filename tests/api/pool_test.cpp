// SPDX-License-Identifier: MIT
// weft::thread_pool, install, num_threads, thread_index: black-box.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <vector>

#include "fib.hpp"
#include "test_support.hpp"
#include "weft/weft.hpp"

using weft_test::par_fib;

TEST_CASE("the global pool has WEFT_NUM_THREADS threads", "[pool][interface]") {
  const char* env = std::getenv("WEFT_NUM_THREADS");
  REQUIRE(env != nullptr);
  REQUIRE(weft::num_threads() == std::strtoul(env, nullptr, 10));
  REQUIRE_FALSE(weft::thread_index().has_value());
}

TEST_CASE("install runs on the pool, indices stay in range", "[pool][interface]") {
  weft::thread_pool pool({.num_threads = 3});
  REQUIRE(pool.num_threads() == 3);
  std::vector<std::atomic<int>> seen(3);
  std::atomic<int> bad{0};  // Catch2 assertions are not thread-safe: collect, then check
  const std::size_t inside = pool.install([&] {
    weft::scope([&](auto& s) {
      for (int i = 0; i < 2000; ++i)
        s.spawn([&] {
          auto idx = weft::thread_index();
          if (!idx.has_value() || *idx >= 3)
            bad.fetch_add(1);
          else
            seen[*idx].fetch_add(1, std::memory_order_relaxed);
        });
    });
    return weft::num_threads();
  });
  REQUIRE(inside == 3);
  REQUIRE(bad.load() == 0);
  int total = 0;
  for (auto& s : seen) total += s.load();
  REQUIRE(total == 2000);
  REQUIRE_FALSE(weft::thread_index().has_value());
}

TEST_CASE("install returns values and rethrows exceptions", "[pool][exceptions]") {
  weft::thread_pool pool({.num_threads = 2});
  REQUIRE(pool.install([] { return par_fib(20); }) == 6765);
  REQUIRE_THROWS_AS(pool.install([]() -> int { throw std::runtime_error("boom"); }),
                    std::runtime_error);
  REQUIRE(pool.install([] { return par_fib(15); }) == 610);
}

TEST_CASE("install across two pools, both directions, nested", "[pool][requirement]") {
  weft::thread_pool p1({.num_threads = 2});
  weft::thread_pool p2({.num_threads = 3});
  std::atomic<int> bad{0};
  const long r = p1.install([&] {
    auto [x, y] = weft::join(
        [&] {
          return p2.install([&] {
            if (weft::num_threads() != 3) bad.fetch_add(1);
            return p1.install([&] {
              if (weft::num_threads() != 2) bad.fetch_add(1);
              return par_fib(15);
            });
          });
        },
        [&] { return p2.install([&] { return par_fib(16); }); });
    return x + y;
  });
  REQUIRE(r == 610 + 987);
  REQUIRE(bad.load() == 0);
  for (int i = 0; i < 50; ++i)
    REQUIRE(p2.install([&] { return p1.install([&] { return par_fib(10); }) + par_fib(10); }) == 110);
}

TEST_CASE("single-thread pools serve concurrent callers", "[pool][requirement]") {
  weft::thread_pool pool({.num_threads = 1});
  std::vector<std::thread> callers;
  std::atomic<long> sum{0};
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&] {
      for (int i = 0; i < 50; ++i) sum.fetch_add(pool.install([] { return par_fib(12); }));
    });
  for (auto& c : callers) c.join();
  REQUIRE(sum.load() == 4L * 50 * 144);
}

TEST_CASE("pool workers fall asleep when idle", "[pool][resource_usage]") {
  weft::thread_pool pool({.num_threads = 3});
  pool.install([] { return par_fib(18); });
  REQUIRE(weft_test::eventually([&] { return pool.stats().sleeping == 2; }));
}

TEST_CASE("stats count each thread's jobs, steals, sleeps and wake-ups", "[pool][stats]") {
  for (const std::size_t threads : {std::size_t{2}, std::size_t{7}}) {
    weft::thread_pool pool({.num_threads = threads});
    const auto at_start = pool.stats();
    REQUIRE(at_start.workers.size() == threads);

    // The background threads fall asleep once idle.
    REQUIRE(weft_test::eventually([&] { return pool.stats().sleeping == threads - 1; }));
    const auto asleep = pool.stats();
    for (std::size_t i = 1; i < threads; ++i) REQUIRE(asleep.workers[i].sleeps >= 1);

    // B can only run on another thread while A waits for it: some thread steals it.
    std::atomic<bool> b_ran{false};
    bool b_seen = false;
    pool.install([&] {
      weft::join([&] { b_seen = weft_test::eventually([&] { return b_ran.load(); }); },
                 [&] { b_ran = true; });
    });
    REQUIRE(b_seen);
    // Mail to every thread: each runs one job from the pool's queues.
    weft::broadcast(pool, [](std::size_t) {});

    const auto after = pool.stats();
    std::uint64_t steals = 0;
    std::uint64_t wakeups = 0;
    for (std::size_t i = 0; i < threads; ++i) {
      const auto& w = after.workers[i];
      const auto& before = asleep.workers[i];
      REQUIRE(w.jobs_run >= before.jobs_run);  // monotonic
      REQUIRE(w.steals >= before.steals);
      REQUIRE(w.sleeps >= before.sleeps);
      REQUIRE(w.steals <= w.jobs_run);
      if (i > 0) REQUIRE(w.jobs_run >= 1);  // its broadcast job at least
      steals += w.steals - before.steals;
      wakeups += w.wakeups - before.wakeups;
    }
    REQUIRE(steals >= 1);
    REQUIRE(wakeups >= 1);  // the thief was asleep, and so was every broadcast target
  }
}
