// SPDX-License-Identifier: MIT
// Scope spawns under load (docs/protocols/spawn.md): lazily counted trees, spawns into outer
// scopes from inner scopes and from stolen joins, spawns injected from outside threads,
// exceptions deep in spawned trees; every task runs exactly once before its scope returns.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

// n-queens by one spawn per placement: the count is exact only if no task is lost or run
// twice and the scope waits for all of them (S4).
struct queens {
  std::atomic<long>* solutions;
  int n, row;
  unsigned cols, d1, d2;
  void operator()(weft::task_scope& s) const {
    if (row == n) {
      solutions->fetch_add(1, std::memory_order_relaxed);
      return;
    }
    unsigned avail = ~(cols | d1 | d2) & ((1u << n) - 1);
    while (avail != 0) {
      const unsigned bit = avail & (0u - avail);
      avail -= bit;
      s.spawn(queens{solutions, n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1});
    }
  }
};

long count_queens(int n) {
  std::atomic<long> solutions{0};
  weft::scope([&](auto& s) { queens{&solutions, n, 0, 0, 0, 0}(s); });
  return solutions.load();
}

}  // namespace

TEST_CASE("spawned n-queens trees count exactly", "[scope][stress]") {
  const std::uint64_t rounds = weft_test::stress_iters(200);
  const long expected[] = {1, 1, 0, 0, 2, 10, 4, 40, 92};
  for (std::uint64_t r = 0; r < rounds; ++r) {
    const int n = 4 + static_cast<int>(r % 5);
    REQUIRE(count_queens(n) == expected[n]);
  }
}

TEST_CASE("tasks of inner scopes and stolen joins spawn into the outer scope", "[scope][stress]") {
  const std::uint64_t rounds = weft_test::stress_iters(200);
  for (std::uint64_t r = 0; r < rounds; ++r) {
    std::atomic<long> ran{0};
    weft::scope([&](weft::task_scope& outer) {
      for (int i = 0; i < 16; ++i)
        outer.spawn([&ran, &outer] {
          // Inner scope's tasks spawn into `outer`: counted at once (S1), they may outlive
          // the inner scope.
          weft::scope([&](weft::task_scope& inner) {
            for (int k = 0; k < 4; ++k)
              inner.spawn([&ran, &outer] {
                outer.spawn([&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
              });
          });
          // Both sides of a join spawn into `outer`; `b` may be stolen by a thread that is
          // inside a task of `outer` or of no scope at all.
          weft::join([&] { outer.spawn([&ran] { ran.fetch_add(1, std::memory_order_relaxed); }); },
                     [&] {
                       for (int k = 0; k < 3; ++k)
                         outer.spawn([&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
                     });
        });
    });
    REQUIRE(ran.load() == 16 * (4 + 1 + 3));
  }
}

TEST_CASE("outside threads spawn into a running scope", "[scope][stress]") {
  const std::uint64_t rounds = weft_test::stress_iters(200) / 10 + 1;
  for (std::uint64_t r = 0; r < rounds; ++r) {
    std::atomic<long> ran{0};
    weft::scope([&](weft::task_scope& s) {
      // The body's own tasks, while 8 outside threads inject theirs (counted at once).
      for (int i = 0; i < 100; ++i) s.spawn([&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
      std::vector<std::thread> outside;
      for (int t = 0; t < 8; ++t)
        outside.emplace_back([&s, &ran] {
          for (int i = 0; i < 50; ++i)
            s.spawn([&ran](weft::task_scope& again) {
              ran.fetch_add(1, std::memory_order_relaxed);
              again.spawn([&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
            });
        });
      for (auto& t : outside) t.join();
    });
    REQUIRE(ran.load() == 100 + 8 * 50 * 2);
  }
}

TEST_CASE("an exception deep in a spawned tree: every task still runs, the pool stays usable",
          "[scope][stress][exceptions]") {
  const std::uint64_t rounds = weft_test::stress_iters(200);
  for (std::uint64_t r = 0; r < rounds; ++r) {
    std::atomic<long> ran{0};
    const long bad = static_cast<long>(r % 257);  // ids 0..256
    struct node {
      std::atomic<long>* ran;
      long id, bad;
      void operator()(weft::task_scope& s) const {
        ran->fetch_add(1, std::memory_order_relaxed);
        if (id < 128) {
          s.spawn(node{ran, 2 * id + 1, bad});
          s.spawn(node{ran, 2 * id + 2, bad});
        }
        if (id == bad) throw weft_test::test_error{static_cast<int>(id)};
      }
    };
    try {
      weft::scope([&](auto& s) { s.spawn(node{&ran, 0, bad}); });
      FAIL("no exception");
    } catch (const weft_test::test_error& e) {
      REQUIRE(e.depth == bad);
    }
    REQUIRE(ran.load() == 257);
    REQUIRE(count_queens(6) == 4);
  }
}
