// SPDX-License-Identifier: MIT
// weft::broadcast: one call per thread of the pool, on that thread; from outside, from a
// worker, concurrently; exceptions.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstddef>
#include <set>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

TEST_CASE("broadcast calls f(i) once on thread i of pools of 1, 2 and 7 threads",
          "[broadcast][requirement]") {
  for (const std::size_t threads : {1, 2, 7}) {
    weft::thread_pool pool({.num_threads = threads});
    for (int round = 0; round < 20; ++round) {
      const std::vector<std::size_t> seen = weft::broadcast(pool, [](std::size_t index) {
        if (weft::thread_index() != index) std::abort();  // runs on thread `index`
        return index * 10;
      });
      REQUIRE(seen.size() == threads);
      for (std::size_t i = 0; i < threads; ++i) REQUIRE(seen[i] == i * 10);
    }
    // From a worker, inside a join: the caller makes its own call, the others theirs.
    pool.install([&] {
      std::atomic<int> calls{0};
      weft::join([&] { weft::broadcast([&](std::size_t) { calls.fetch_add(1); }); },
                 [&] { calls.fetch_add(100); });
      REQUIRE(calls.load() == static_cast<int>(threads) + 100);
    });
  }
}

TEST_CASE("broadcasts from several threads at once", "[broadcast][stress]") {
  weft::thread_pool pool({.num_threads = 3});
  const std::uint64_t rounds = weft_test::stress_iters(200) / 10 + 1;
  std::atomic<long> calls{0};
  std::vector<std::thread> outside;
  for (int t = 0; t < 4; ++t)
    outside.emplace_back([&] {
      for (std::uint64_t r = 0; r < rounds; ++r)
        weft::broadcast(pool, [&](std::size_t) { calls.fetch_add(1, std::memory_order_relaxed); });
    });
  // Meanwhile the pool's threads are busy with other work and fall asleep between rounds.
  pool.install([&] {
    for (std::uint64_t r = 0; r < rounds; ++r)
      weft::broadcast([&](std::size_t) { calls.fetch_add(1, std::memory_order_relaxed); });
  });
  for (auto& t : outside) t.join();
  REQUIRE(calls.load() == static_cast<long>(5 * rounds * 3));
}

TEST_CASE("broadcast: every call runs, the lowest index's exception wins", "[broadcast][exceptions]") {
  weft::thread_pool pool({.num_threads = 4});
  std::atomic<int> calls{0};
  try {
    weft::broadcast(pool, [&](std::size_t index) {
      calls.fetch_add(1);
      if (index >= 2) throw weft_test::test_error{static_cast<int>(index)};
    });
    FAIL("no exception");
  } catch (const weft_test::test_error& e) {
    REQUIRE(e.depth == 2);
  }
  REQUIRE(calls.load() == 4);
  REQUIRE(pool.install([] { return 1; }) == 1);
  // The global pool, from outside it.
  const auto ids = weft::broadcast([](std::size_t i) { return i; });
  REQUIRE(ids.size() == weft::num_threads());
}
