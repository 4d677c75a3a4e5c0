// SPDX-License-Identifier: MIT
// weft::scope, black-box: many spawns, nesting, borrowing, exceptions.
#include <catch2/catch.hpp>

#include <atomic>
#include <numeric>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

TEST_CASE("100,000 spawns all run before scope returns", "[scope][requirement]") {
  std::atomic<long> sum{0};
  weft::scope([&](auto& s) {
    for (long i = 0; i < 100'000; ++i) s.spawn([&sum, i] { sum.fetch_add(i, std::memory_order_relaxed); });
  });
  REQUIRE(sum.load() == 100'000L * 99'999L / 2);
}

TEST_CASE("tasks spawn more tasks through the scope", "[scope][requirement]") {
  std::atomic<int> count{0};
  struct spawner {
    std::atomic<int>* count;
    int depth;
    void operator()(weft::task_scope& s) const {
      count->fetch_add(1);
      if (depth > 0) {
        s.spawn(spawner{count, depth - 1});
        s.spawn(spawner{count, depth - 1});
      }
    }
  };
  weft::scope([&](auto& s) { s.spawn(spawner{&count, 12}); });
  REQUIRE(count.load() == (1 << 13) - 1);
}

TEST_CASE("nested scopes and joins inside tasks", "[scope][requirement]") {
  std::vector<long> out(64, 0);
  weft::scope([&](auto& s) {
    for (std::size_t i = 0; i < out.size(); ++i)
      s.spawn([&out, i] {
        weft::scope([&](auto& inner) {
          for (int k = 0; k < 10; ++k)
            inner.spawn([&out, i] {
              auto [a, b] = weft::join([] { return 1L; }, [] { return 2L; });
              std::atomic_ref<long>(out[i]).fetch_add(a + b);
            });
        });
      });
  });
  for (long v : out) REQUIRE(v == 30);
}

TEST_CASE("scope returns the body's value", "[scope][interface]") {
  const int r = weft::scope([](auto& s) {
    s.spawn([] {});
    return 42;
  });
  REQUIRE(r == 42);
}

TEST_CASE("the first exception is rethrown after every task finished", "[scope][exceptions]") {
  for (int round = 0; round < 20; ++round) {
    std::atomic<int> finished{0};
    try {
      weft::scope([&](auto& s) {
        for (int i = 0; i < 200; ++i)
          s.spawn([&finished, i, round] {
            finished.fetch_add(1);
            if (i % 37 == round % 37) throw weft_test::test_error{i};
          });
      });
      FAIL("no exception");
    } catch (const weft_test::test_error& e) {
      REQUIRE(e.depth % 37 == round % 37);
    }
    REQUIRE(finished.load() == 200);
  }
  // The body's own exception, and the pool afterwards.
  REQUIRE_THROWS_AS(weft::scope([](auto& s) {
                      s.spawn([] {});
                      throw weft_test::test_error{0};
                    }),
                    weft_test::test_error);
  std::atomic<int> n{0};
  weft::scope([&](auto& s) { s.spawn([&] { n = 1; }); });
  REQUIRE(n.load() == 1);
}

// A body that spawns its tasks in a loop runs them itself afterwards (S3, newest first); a
// thread that turns idle meanwhile must still be offered the rest, on every run of the drain,
// not only while the loop pushed. Each task the spawning thread runs waits (bounded, without a
// clock) until another thread finished a task after it started: with offers only at the
// pushes, the others get the one task published then and the count stays near 1; with the
// drain's offers they get about every other task.
TEST_CASE("a loop's spawned tasks reach the other threads while the spawner runs them",
          "[scope][task_group][scheduling]") {
  constexpr int tasks = 64;
  for (const std::size_t threads : {std::size_t{2}, std::size_t{7}}) {
    weft::thread_pool pool({.num_threads = threads});
    for (const bool by_task_group : {false, true}) {
      CAPTURE(threads, by_task_group);
      std::atomic<int> others_done{0};
      std::atomic<int> ran{0};
      std::size_t spawner = 0;
      const auto task = [&] {
        ran.fetch_add(1);
        if (*weft::thread_index() == spawner) {
          const int seen = others_done.load();
          weft_test::eventually([&] { return others_done.load() > seen; }, 200'000);
        } else {
          others_done.fetch_add(1);
        }
      };
      pool.install([&] {
        spawner = *weft::thread_index();
        if (by_task_group) {
          weft::task_group group;
          for (int i = 0; i < tasks; ++i) group.run(task);
          group.wait();
        } else {
          weft::scope([&](weft::task_scope& s) {
            for (int i = 0; i < tasks; ++i) s.spawn(task);
          });
        }
      });
      CHECK(ran.load() == tasks);
      CHECK(others_done.load() >= tasks / 8);
    }
  }
}
