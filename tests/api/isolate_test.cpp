// SPDX-License-Identifier: MIT
// weft::isolate, black-box: its result and exceptions, and the two deadlocks it exists for
// (a lock held across a nested parallel call, a lazy static initialised in parallel).
#include <catch2/catch.hpp>

#include <atomic>
#include <cstddef>
#include <mutex>
#include <stdexcept>
#include <string>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

// What the lock scenario checks on each thread: whether it holds the lock, and how many
// frames of the inner (isolated) work are on its stack.
thread_local bool holds_lock = false;
thread_local int inner_frames = 0;

struct inner_frame {
  inner_frame() { ++inner_frames; }
  ~inner_frame() { --inner_frames; }
  inner_frame(const inner_frame&) = delete;
  inner_frame& operator=(const inner_frame&) = delete;
};

// A join tree whose frames span its waits: a thread that waits inside it has an inner_frame
// on its stack.
long inner_tree(int depth) {
  inner_frame frame;
  if (depth == 0) {
    volatile long x = 0;
    for (int i = 0; i < 200; ++i) x = x + i;
    return 1;
  }
  auto [a, b] = weft::join([=] { return inner_tree(depth - 1); }, [=] { return inner_tree(depth - 1); });
  return a + b;
}

// Each outer iteration takes the lock and runs a nested parallel call under it. Without
// isolation, a thread that waits inside the nested call (holding the lock) may take another
// outer iteration and block on the lock it holds; a thread that runs a stolen part of the
// nested call and waits inside it may take an outer iteration and block on the lock held by
// the thread that waits for it. Either is counted as a violation (and the lock is skipped,
// so that a failure reports instead of hanging).
long lock_scenario(std::atomic<int>& violations, bool isolated) {
  std::mutex m;
  std::atomic<long> total{0};
  weft::range(0, 64).for_each([&](int) {
    if (holds_lock || inner_frames > 0) {
      violations.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    std::lock_guard<std::mutex> lock(m);
    holds_lock = true;
    const long n = isolated ? weft::isolate([] { return inner_tree(8); }) : inner_tree(8);
    holds_lock = false;
    total.fetch_add(n, std::memory_order_relaxed);
  });
  return total.load();
}

// A function-local static whose initialisation is a parallel computation, used from inside
// a parallel loop: the initialising thread must not take an outer iteration while it waits
// (that iteration would enter the initialisation again on the same thread).
long& lazy_table() {
  static long table = weft::isolate([] {
    return weft::range(0L, 200'000L).map([](long x) { return x % 7; }).sum();
  });
  return table;
}

}  // namespace

TEST_CASE("isolate returns what f returns and passes exceptions through", "[isolate][requirement]") {
  REQUIRE(weft::isolate([] { return 42; }) == 42);
  std::string s = "abc";
  std::string& ref = weft::isolate([&]() -> std::string& { return s; });
  REQUIRE(&ref == &s);
  REQUIRE_THROWS_AS(weft::isolate([]() -> int { throw std::runtime_error("inside"); }),
                    std::runtime_error);
  weft::thread_pool pool({.num_threads = 2});
  pool.install([] {
    REQUIRE_THROWS_AS(weft::isolate([] {
                        weft::join([] { throw std::logic_error("a"); }, [] {});
                      }),
                      std::logic_error);
    // The pool is usable and the thread no longer isolated.
    REQUIRE(weft::range(0, 1000).sum() == 499'500);
  });
}

TEST_CASE("a lock held across a nested parallel call: isolate completes without re-entry",
          "[isolate][requirement]") {
  for (std::size_t threads : {1u, 2u, 4u, 7u}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([] {
      std::atomic<int> violations{0};
      const long total = lock_scenario(violations, true);
      REQUIRE(violations.load() == 0);
      REQUIRE(total == 64L * 256L);
    });
  }
}

TEST_CASE("a lazy static initialised by a parallel computation inside a parallel loop",
          "[isolate][requirement]") {
  std::atomic<long> sum{0};
  weft::range(0, 10'000).for_each([&](int) { sum.fetch_add(lazy_table() % 5, std::memory_order_relaxed); });
  long expected = 0;
  for (long x = 0; x < 200'000; ++x) expected += x % 7;
  REQUIRE(lazy_table() == expected);
  REQUIRE(sum.load() == 10'000L * (expected % 5));
}

TEST_CASE("isolate nests, and outside every pool isolates what f runs on the global pool",
          "[isolate]") {
  const long n = weft::isolate([] {
    return weft::isolate([] { return inner_tree(6); }) + weft::range(0L, 100L).sum();
  });
  REQUIRE(n == 64 + 4950);
  std::atomic<int> violations{0};
  const long total = weft::isolate([&] { return lock_scenario(violations, true); });
  REQUIRE(violations.load() == 0);
  REQUIRE(total == 64L * 256L);
}

TEST_CASE("isolated regions wait for scopes, task_groups and futures of their own",
          "[isolate]") {
  weft::thread_pool pool({.num_threads = 3});
  pool.install([] {
    std::atomic<long> ran{0};
    weft::isolate([&] {
      weft::scope([&](weft::task_scope& s) {
        for (int i = 0; i < 1000; ++i) s.spawn([&] { ran.fetch_add(1, std::memory_order_relaxed); });
      });
      weft::task_group g;
      for (int i = 0; i < 1000; ++i) g.run([&] { ran.fetch_add(1, std::memory_order_relaxed); });
      g.wait();
      auto f = weft::async([] { return inner_tree(5); });
      ran.fetch_add(f.get(), std::memory_order_relaxed);
    });
    REQUIRE(ran.load() == 2032);
  });
}
