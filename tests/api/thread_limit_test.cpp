// SPDX-License-Identifier: MIT
// weft::thread_limit: which threads run a pool's work while limits live, on pools of 1, 2 and
// 7 threads; nesting and lifting; limits made and dropped by several threads at once. A limit
// is created while every background thread sleeps (none is mid-search), so the set of thread
// indices that run work under it is exact.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {
void wait_all_asleep(weft::thread_pool& pool) {
  REQUIRE(weft_test::eventually([&] { return pool.stats().sleeping == pool.num_threads() - 1; }));
}

// The thread indices that run the leaves of a join tree and of a for_each over `pool`.
std::set<std::size_t> indices_running(weft::thread_pool& pool) {
  std::mutex mutex;
  std::set<std::size_t> seen;
  const auto record = [&] {
    const std::size_t i = weft::thread_index().value();
    std::lock_guard<std::mutex> lock(mutex);
    seen.insert(i);
  };
  pool.install([&] {
    auto tree = [&](auto& self, int depth) -> void {
      if (depth == 0) {
        record();
        return;
      }
      weft::join([&] { self(self, depth - 1); }, [&] { self(self, depth - 1); });
    };
    tree(tree, 10);
    std::vector<int> v(20000, 1);
    weft::for_each(weft::par, v.begin(), v.end(), [&](int& x) {
      x += 1;
      if ((&x - v.data()) % 64 == 0) record();
    });
  });
  return seen;
}

// Two tasks that each wait for the other to start: one submitted from outside (a background
// thread must take it), one run by this thread through the caller seat. They end only if a
// background thread of the pool runs work beside the caller.
void needs_two_threads(weft::thread_pool& pool) {
  std::atomic<bool> first{false};
  std::atomic<bool> second{false};
  pool.spawn([&] {
    first.store(true);
    while (!second.load()) std::this_thread::yield();
  });
  pool.install([&] {
    second.store(true);
    while (!first.load()) std::this_thread::yield();
  });
  pool.wait_idle();
}
}  // namespace

TEST_CASE("thread_limit of 1: one thread index runs a join tree and a for_each", "[limit]") {
  for (const std::size_t threads : {1, 2, 7}) {
    CAPTURE(threads);
    weft::thread_pool pool({.num_threads = threads});
    wait_all_asleep(pool);
    {
      const weft::thread_limit lim(1);
      CHECK(weft::thread_limit::active() == 1);
      CHECK(pool.num_threads() == threads);
      CHECK(indices_running(pool) == std::set<std::size_t>{0});
    }
    CHECK_FALSE(weft::thread_limit::active().has_value());
    if (threads > 1) needs_two_threads(pool);  // lifted: the parked threads work again
  }
}

// Every limit is created before any work runs (all threads asleep); the checks then follow
// the limits as they lift.
TEST_CASE("thread_limit: limits nest, the smallest wins, and lift in any order", "[limit]") {
  weft::thread_pool pool({.num_threads = 7});
  wait_all_asleep(pool);
  std::optional<weft::thread_limit> three(std::in_place, 3);
  std::optional<weft::thread_limit> two(std::in_place, 2);
  std::optional<weft::thread_limit> five(std::in_place, 5);
  {
    const weft::thread_limit one(1);
    CHECK(weft::thread_limit::active() == 1);
    CHECK(indices_running(pool) == std::set<std::size_t>{0});
  }
  CHECK(weft::thread_limit::active() == 2);
  for (const std::size_t i : indices_running(pool)) CHECK(i < 2);
  three.reset();  // an outer limit dropped first: the inner one stays in force
  CHECK(weft::thread_limit::active() == 2);
  for (const std::size_t i : indices_running(pool)) CHECK(i < 2);
  needs_two_threads(pool);
  two.reset();
  CHECK(weft::thread_limit::active() == 5);
  for (const std::size_t i : indices_running(pool)) CHECK(i < 5);
  five.reset();
  CHECK_FALSE(weft::thread_limit::active().has_value());
  needs_two_threads(pool);
}

TEST_CASE("thread_limit of 0 is refused", "[limit]") {
  CHECK_THROWS_AS(weft::thread_limit(0), std::invalid_argument);
  CHECK_FALSE(weft::thread_limit::active().has_value());
}

// Limits made and dropped by four threads while a fifth computes on a pool and two more
// submit work from outside it: every result is right, nothing is stranded (the test ends),
// and no limit outlives its object.
TEST_CASE("thread_limit: made and dropped by several threads while pools work", "[limit]") {
  weft::thread_pool pool({.num_threads = 7});
  std::atomic<bool> done{false};
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < 300; ++r) {
        const std::size_t k = 1 + static_cast<std::size_t>((t + r) % 4);
        const weft::thread_limit lim(k);
        const auto active = weft::thread_limit::active();
        if (!active || *active > k) wrong.fetch_add(1);
        std::this_thread::yield();
      }
    });
  }
  std::thread computing([&] {
    while (!done.load()) {
      std::vector<std::uint64_t> v(5000);
      const std::uint64_t sum = pool.install([&] {
        weft::for_each(weft::par, v.begin(), v.end(), [&](std::uint64_t& x) { x = &x - v.data(); });
        return weft::iter(v).sum();
      });
      if (sum != 5000ull * 4999 / 2) wrong.fetch_add(1);
    }
  });
  std::vector<std::thread> submitters;
  for (int s = 0; s < 2; ++s) {
    submitters.emplace_back([&] {
      while (!done.load()) {
        std::atomic<int> ran{0};
        weft::join([&] { ran.fetch_add(1); }, [&] { ran.fetch_add(1); });  // the global pool
        pool.install([&] { ran.fetch_add(1); });
        if (ran.load() != 3) wrong.fetch_add(1);
      }
    });
  }
  for (auto& t : threads) t.join();
  done.store(true);
  computing.join();
  for (auto& s : submitters) s.join();
  CHECK(wrong.load() == 0);
  CHECK_FALSE(weft::thread_limit::active().has_value());
}
