// SPDX-License-Identifier: MIT
// Scope spawns under load (docs/protocols/spawn.md): lazily counted trees, spawns into outer
// scopes from inner scopes and from stolen joins, spawns injected from outside threads,
// exceptions deep in spawned trees; every task runs exactly once before its scope returns.
#include <catch2/catch.hpp>

#include "stop_source_warning.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <stop_token>
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

TEST_CASE("8 outside threads run task_group trees into one pool", "[task_group][stress]") {
  const std::uint64_t rounds = weft_test::stress_iters(200) / 20 + 1;
  weft::thread_pool pool({.num_threads = 2});
  for (std::uint64_t r = 0; r < rounds; ++r) {
    std::vector<std::thread> outside;
    std::atomic<long> total{0};
    for (int t = 0; t < 8; ++t)
      outside.emplace_back([&pool, &total, t] {
        weft::task_group* g = nullptr;
        pool.install([&] { g = new weft::task_group; });
        struct node {
          weft::task_group* g;
          std::atomic<long>* total;
          int depth;
          void operator()() const {
            total->fetch_add(1, std::memory_order_relaxed);
            if (depth > 0) {
              g->run(node{g, total, depth - 1});
              g->run(node{g, total, depth - 1});
            }
          }
        };
        for (int k = 0; k < 4; ++k) g->run(node{g, &total, 6 + t % 3});
        if (g->wait() != weft::task_group_status::complete) std::abort();
        delete g;
      });
    for (auto& th : outside) th.join();
    // 8 threads x 4 trees of depths 6, 7, 8 (t % 3): 2^(d+1) - 1 nodes each.
    long expected = 0;
    for (int t = 0; t < 8; ++t) expected += 4 * ((2L << (6 + t % 3)) - 1);
    REQUIRE(total.load() == expected);
  }
}

TEST_CASE("cancel while tasks run: started tasks finish, the rest are skipped, wait returns",
          "[task_group][stress][cancel]") {
  const std::uint64_t rounds = weft_test::stress_iters(200);
  for (std::uint64_t r = 0; r < rounds; ++r) {
    std::atomic<long> started{0}, finished{0};
    weft::task_group g;
    for (int i = 0; i < 200; ++i)
      g.run([&, i] {
        started.fetch_add(1, std::memory_order_relaxed);
        if (i == static_cast<int>(r % 200)) g.cancel();
        finished.fetch_add(1, std::memory_order_relaxed);
      });
    const auto status = g.wait();
    REQUIRE(started.load() == finished.load());
    REQUIRE(started.load() <= 200);
    REQUIRE(status == weft::task_group_status::canceled);  // task r % 200 always starts
  }
}

// FIFO spawns (docs/protocols/spawn.md#fifo-spawns): each callable runs exactly once, from
// the indirection of its own queue or another's turn at it (Q1..Q3).
TEST_CASE("spawn_fifo storms into one scope_fifo from its tasks and from outside threads",
          "[scope_fifo][stress]") {
  const std::uint64_t rounds = weft_test::stress_iters(200) / 10 + 1;
  static constexpr int tasks = 16, per_task = 50, outside_threads = 8, per_thread = 50;
  static constexpr int total = tasks * (1 + per_task) + outside_threads * per_thread * 2;
  for (std::uint64_t r = 0; r < rounds; ++r) {
    std::vector<std::atomic<int>> runs(total);
    std::atomic<long> sum{0};
    weft::scope_fifo([&](weft::task_scope_fifo& s) {
      // Tasks that spawn into the scope from whichever thread runs them (each thread's own
      // queue), while outside threads push theirs into the outside queue.
      for (int t = 0; t < tasks; ++t)
        s.spawn_fifo([&runs, &sum, t](weft::task_scope_fifo& again) {
          runs[t].fetch_add(1, std::memory_order_relaxed);
          for (int k = 0; k < per_task; ++k) {
            const int id = tasks + t * per_task + k;
            again.spawn_fifo([&runs, &sum, id] {
              runs[id].fetch_add(1, std::memory_order_relaxed);
              sum.fetch_add(id, std::memory_order_relaxed);
            });
          }
        });
      std::vector<std::thread> outside;
      for (int o = 0; o < outside_threads; ++o)
        outside.emplace_back([&s, &runs, &sum, o] {
          for (int i = 0; i < per_thread; ++i) {
            const int id = tasks * (1 + per_task) + (o * per_thread + i) * 2;
            s.spawn_fifo([&runs, &sum, id](weft::task_scope_fifo& again) {
              runs[id].fetch_add(1, std::memory_order_relaxed);
              again.spawn_fifo([&runs, &sum, id] {
                runs[id + 1].fetch_add(1, std::memory_order_relaxed);
                sum.fetch_add(id + 1, std::memory_order_relaxed);
              });
            });
          }
        });
      for (auto& th : outside) th.join();
    });
    for (const auto& v : runs) REQUIRE(v.load() == 1);
    long expected = 0;
    for (int t = 0; t < tasks; ++t)
      for (int k = 0; k < per_task; ++k) expected += tasks + t * per_task + k;
    for (int o = 0; o < outside_threads; ++o)
      for (int i = 0; i < per_thread; ++i) expected += tasks * (1 + per_task) + (o * per_thread + i) * 2 + 1;
    REQUIRE(sum.load() == expected);
  }
}

TEST_CASE("8 outside threads spawn_fifo detached tasks into one pool, then wait_idle",
          "[scope_fifo][spawn][stress]") {
  const std::uint64_t rounds = weft_test::stress_iters(200) / 20 + 1;
  weft::thread_pool pool({.num_threads = 2});
  for (std::uint64_t r = 0; r < rounds; ++r) {
    std::atomic<long> ran{0}, sum{0};
    std::vector<std::thread> outside;
    for (int t = 0; t < 8; ++t)
      outside.emplace_back([&pool, &ran, &sum, t] {
        for (int i = 0; i < 200; ++i)
          pool.spawn_fifo([&ran, &sum, t, i] {
            ran.fetch_add(1, std::memory_order_relaxed);
            sum.fetch_add(t * 200 + i, std::memory_order_relaxed);
            // From a worker: its own queue.
            weft::spawn_fifo([&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
          });
      });
    for (auto& th : outside) th.join();
    pool.wait_idle();
    REQUIRE(ran.load() == 8 * 200 * 2);
    REQUIRE(sum.load() == 1600L * 1599L / 2);
  }
}

// D4 (docs/protocols/spawn.md#detached-tasks): the decrement that ends one idle period may
// reach its lock only after the next task was spawned and its waiter registered; it must not
// return that wait_idle() early. Each round's task is spawned after the previous round's
// wait_idle() returned, and each wait_idle() must see its own round's task finished. On 7
// threads (oversubscribed on small machines) a worker is often preempted between the two.
TEST_CASE("wait_idle returns only after the task spawned before it: back-to-back idle periods",
          "[spawn][stress]") {
  const std::uint64_t rounds = weft_test::stress_iters(200) * 10;
  for (std::size_t threads : {2, 7}) {
    weft::thread_pool pool({.num_threads = threads});
    std::atomic<std::uint64_t> finished{0};
    for (std::uint64_t r = 1; r <= rounds; ++r) {
      pool.spawn([&finished, r] { finished.store(r, std::memory_order_relaxed); });
      pool.wait_idle();
      if (finished.load(std::memory_order_relaxed) != r)
        FAIL("wait_idle returned early in round " << r);
    }
  }
}

// Stop tokens (docs/protocols/spawn.md#stop-tokens): a stop requested by an outside thread
// while a scope's tree and a pipeline run. A task spawned by a thread that knows the
// request_stop() call returned never runs; every started task finishes before the scope
// returns; the pool stays usable.
TEST_CASE("stop tokens: an outside thread stops a growing scope and a running pipeline",
          "[scope][stress][cancel]") {
  const std::uint64_t rounds = weft_test::stress_iters(200) / 20 + 1;
  for (std::uint64_t r = 0; r < rounds; ++r) {
    std::stop_source source;
    std::atomic<bool> stop_returned{false};
    std::atomic<long> started{0}, finished{0}, skipped_ran{0};
    std::thread stopper([&] {
      weft_test::eventually([&] { return started.load() > 50; });
      source.request_stop();
      stop_returned.store(true, std::memory_order_release);
    });
    struct grow {
      std::atomic<bool>* stop_returned;
      std::atomic<long>* started;
      std::atomic<long>* finished;
      std::atomic<long>* skipped_ran;
      int depth;
      void operator()(weft::task_scope& s) const {
        started->fetch_add(1, std::memory_order_relaxed);
        if (stop_returned->load(std::memory_order_acquire)) {
          s.spawn([ran = skipped_ran] { ran->fetch_add(1); });  // must be skipped
        } else if (depth > 0 && !s.stop_requested()) {
          s.spawn(grow{stop_returned, started, finished, skipped_ran, depth - 1});
          s.spawn(grow{stop_returned, started, finished, skipped_ran, depth - 1});
        }
        finished->fetch_add(1, std::memory_order_relaxed);
      }
    };
    weft::scope(source.get_token(), [&](weft::task_scope& s) {
      grow{&stop_returned, &started, &finished, &skipped_ran, 16}(s);
    });
    stopper.join();
    REQUIRE(skipped_ran.load() == 0);
    REQUIRE(started.load() == finished.load());

    std::stop_source pipeline_stop;
    std::atomic<long> visited{0};
    weft::range(0L, 50'000'000L).with_stop(pipeline_stop.get_token()).for_each([&](long) {
      if (visited.fetch_add(1, std::memory_order_relaxed) == 5000) pipeline_stop.request_stop();
    });
    REQUIRE(visited.load() > 5000);
    REQUIRE(visited.load() < 50'000'000L);
    REQUIRE(weft::range(0, 1000).sum() == 499'500);
  }
}

namespace {
thread_local bool holds_lock = false;
thread_local int inner_frames = 0;

long nested_join_tree(int depth) {
  ++inner_frames;
  long n = 1;
  if (depth > 0) {
    auto [a, b] = weft::join([=] { return nested_join_tree(depth - 1); },
                             [=] { return nested_join_tree(depth - 1); });
    n = a + b;
  }
  --inner_frames;
  return n;
}
}  // namespace

// Isolation (docs/protocols/isolation.md): with a lock held across a nested parallel call
// inside weft::isolate, no thread starts an outer iteration while it holds the lock or has a
// frame of the nested call on its stack (I2, I3), on every pool size including oversubscribed
// ones.
// then and when_all whose inputs wait inside their bodies (broadcast, join): the thread
// that runs such an input runs other work while it waits, and the continuation must not
// be among it, for it would wait for the input suspended beneath it on that thread's
// stack. A continuation is started by its last input's runner (F4), never earlier.
TEST_CASE("then and when_all on inputs that wait inside their bodies", "[future][stress]") {
  const std::uint64_t rounds = weft_test::stress_iters(200);
  for (const std::size_t threads : {std::size_t{2}, std::size_t{7}}) {
    weft::thread_pool pool({.num_threads = threads});
    const long per_broadcast = static_cast<long>(threads * (threads - 1) / 2);
    auto waits_inside = [](long seed) {
      return weft::async([seed] {
        std::atomic<long> indices{0};
        weft::broadcast([&](std::size_t i) { indices.fetch_add(static_cast<long>(i)); });
        auto [x, y] = weft::join([seed] { return seed % 7; }, [seed] { return seed % 5; });
        return indices.load() + x + y;
      });
    };
    long total = 0;
    long expected = 0;
    for (std::uint64_t r = 0; r < rounds; ++r) {
      const long seed = static_cast<long>(r);
      total += pool.install([&] {
        auto plus_one = waits_inside(seed).then([](long x) { return x + 1; });
        auto [p, q] = weft::when_all(waits_inside(seed + 1), waits_inside(seed + 2)).get();
        return plus_one.get() + p + q;
      });
      for (long s = seed; s < seed + 3; ++s) expected += per_broadcast + s % 7 + s % 5;
      expected += 1;
    }
    REQUIRE(total == expected);
  }
}

TEST_CASE("isolate: a lock held across nested parallel calls never re-enters",
          "[isolate][stress]") {
  const std::uint64_t rounds = weft_test::stress_iters(200) / 40 + 1;
  for (std::size_t threads : {2u, 3u, 7u}) {
    weft::thread_pool pool({.num_threads = threads});
    for (std::uint64_t r = 0; r < rounds; ++r) {
      std::atomic<int> violations{0};
      std::atomic<long> total{0};
      std::mutex m;
      pool.install([&] {
        weft::range(0, 32).for_each([&](int) {
          if (holds_lock || inner_frames > 0) {
            violations.fetch_add(1);
            return;
          }
          std::lock_guard<std::mutex> lock(m);
          holds_lock = true;
          total.fetch_add(weft::isolate([] { return nested_join_tree(7); }));
          holds_lock = false;
        });
      });
      REQUIRE(violations.load() == 0);
      REQUIRE(total.load() == 32L * 128L);
    }
  }
}
