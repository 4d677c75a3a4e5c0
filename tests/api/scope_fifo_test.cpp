// SPDX-License-Identifier: MIT
// weft::scope_fifo and weft::spawn_fifo, black-box: spawn order on one thread, nesting,
// borrowing, exceptions, counts on several threads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

std::vector<int> iota_vector(int n) {
  std::vector<int> v;
  for (int i = 0; i < n; ++i) v.push_back(i);
  return v;
}

}  // namespace

TEST_CASE("spawn_fifo runs one thread's tasks in spawn order, spawn the newest first",
          "[scope_fifo][requirement]") {
  weft::thread_pool pool({.num_threads = 1});
  std::vector<int> fifo_order, lifo_order;
  pool.install([&] {
    weft::scope_fifo([&](weft::task_scope_fifo& s) {
      for (int i = 0; i < 100; ++i) s.spawn_fifo([&fifo_order, i] { fifo_order.push_back(i); });
    });
    weft::scope([&](weft::task_scope& s) {
      for (int i = 0; i < 100; ++i) s.spawn([&lifo_order, i] { lifo_order.push_back(i); });
    });
  });
  REQUIRE(fifo_order == iota_vector(100));
  std::vector<int> newest_first = iota_vector(100);
  std::reverse(newest_first.begin(), newest_first.end());
  REQUIRE(lifo_order == newest_first);
}

TEST_CASE("spawn_fifo from a task queues behind the tasks already spawned",
          "[scope_fifo][requirement]") {
  weft::thread_pool pool({.num_threads = 1});
  std::vector<int> order;
  pool.install([&] {
    weft::scope_fifo([&](auto& s) {
      for (int i = 0; i < 3; ++i)
        s.spawn_fifo([&order, i](weft::task_scope_fifo& again) {
          order.push_back(i);
          again.spawn_fifo([&order, i] { order.push_back(10 + i); });
        });
    });
  });
  // Breadth first: each level after the one that spawned it.
  REQUIRE(order == std::vector<int>{0, 1, 2, 10, 11, 12});
}

TEST_CASE("spawn_fifo trees all run before scope_fifo returns", "[scope_fifo][requirement]") {
  std::atomic<int> count{0};
  struct spawner {
    std::atomic<int>* count;
    int depth;
    void operator()(weft::task_scope_fifo& s) const {
      count->fetch_add(1, std::memory_order_relaxed);
      if (depth > 0) {
        s.spawn_fifo(spawner{count, depth - 1});
        s.spawn_fifo(spawner{count, depth - 1});
      }
    }
  };
  weft::scope_fifo([&](auto& s) { s.spawn_fifo(spawner{&count, 12}); });
  REQUIRE(count.load() == (1 << 13) - 1);
}

TEST_CASE("scope_fifo tasks borrow from the enclosing frame", "[scope_fifo][requirement]") {
  std::vector<long> in(1000), out(1000, 0);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<long>(i) * 3;
  const int r = weft::scope_fifo([&](auto& s) {
    for (std::size_t i = 0; i < out.size(); ++i)
      s.spawn_fifo([&in, &out, i] { out[i] = in[i] + 7; });
    return 42;
  });
  REQUIRE(r == 42);
  for (std::size_t i = 0; i < out.size(); ++i) REQUIRE(out[i] == static_cast<long>(i) * 3 + 7);
}

TEST_CASE("every spawn_fifo task runs exactly once on a pool of several threads",
          "[scope_fifo][requirement]") {
  for (const std::size_t threads : {2, 4}) {
    weft::thread_pool pool({.num_threads = threads});
    static constexpr int n = 20'000;
    std::vector<std::atomic<int>> runs(n);
    pool.install([&] {
      weft::scope_fifo([&](weft::task_scope_fifo& s) {
        for (int i = 0; i < n / 2; ++i) s.spawn_fifo([&runs, i] { runs[i].fetch_add(1); });
        // A task spawning the other half: its own queue on whichever thread runs it.
        s.spawn_fifo([&runs](weft::task_scope_fifo& again) {
          for (int i = n / 2; i < n; ++i) again.spawn_fifo([&runs, i] { runs[i].fetch_add(1); });
        });
      });
    });
    for (const auto& r : runs) REQUIRE(r.load() == 1);
  }
}

TEST_CASE("scope_fifo rethrows the first exception after every task finished",
          "[scope_fifo][exceptions]") {
  for (int round = 0; round < 20; ++round) {
    std::atomic<int> finished{0};
    try {
      weft::scope_fifo([&](auto& s) {
        for (int i = 0; i < 200; ++i)
          s.spawn_fifo([&finished, i, round] {
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
  // On one thread the first task to throw is the first spawned that throws.
  weft::thread_pool pool({.num_threads = 1});
  pool.install([] {
    try {
      weft::scope_fifo([](auto& s) {
        for (int i = 0; i < 10; ++i)
          s.spawn_fifo([i] {
            if (i >= 3) throw weft_test::test_error{i};
          });
      });
      FAIL("no exception");
    } catch (const weft_test::test_error& e) {
      REQUIRE(e.depth == 3);
    }
  });
  // The body's own exception, and the pool afterwards.
  REQUIRE_THROWS_AS(weft::scope_fifo([](auto& s) {
                      s.spawn_fifo([] {});
                      throw weft_test::test_error{0};
                    }),
                    weft_test::test_error);
  std::atomic<int> n{0};
  weft::scope_fifo([&](auto& s) { s.spawn_fifo([&] { n = 1; }); });
  REQUIRE(n.load() == 1);
}

TEST_CASE("detached spawn_fifo runs one thread's tasks in spawn order",
          "[scope_fifo][spawn][requirement]") {
  weft::thread_pool pool({.num_threads = 1});
  auto order = std::make_shared<std::vector<int>>();
  pool.install([&] {
    for (int i = 0; i < 100; ++i) weft::spawn_fifo([order, i] { order->push_back(i); });
    weft::wait_idle();
  });
  REQUIRE(*order == iota_vector(100));
  // From outside the pool, through thread_pool::spawn_fifo.
  order->clear();
  for (int i = 0; i < 100; ++i) pool.spawn_fifo([order, i] { order->push_back(i); });
  pool.wait_idle();
  REQUIRE(*order == iota_vector(100));
  // Plain detached spawns from a worker run the newest first.
  order->clear();
  pool.install([&] {
    for (int i = 0; i < 100; ++i) weft::spawn([order, i] { order->push_back(i); });
    weft::wait_idle();
  });
  REQUIRE(order->front() == 99);
}

TEST_CASE("detached spawn_fifo tasks are counted by their pool", "[scope_fifo][spawn][requirement]") {
  for (const std::size_t threads : {2, 3}) {
    std::atomic<int> ran{0};
    {
      weft::thread_pool pool({.num_threads = threads});
      for (int i = 0; i < 500; ++i) pool.spawn_fifo([&ran] { ran.fetch_add(1); });
      const int after_wait = pool.install([&] {
        for (int i = 0; i < 500; ++i)
          weft::spawn_fifo([&ran] {
            ran.fetch_add(1);
            weft::spawn_fifo([&ran] { ran.fetch_add(1); });
          });
        weft::wait_idle();
        return ran.load();
      });
      REQUIRE(after_wait == 1500);
      for (int i = 0; i < 500; ++i) pool.spawn_fifo([&ran] { ran.fetch_add(1); });
    }  // the destructor waits
    REQUIRE(ran.load() == 2000);
  }
}

TEST_CASE("an exception from a detached spawn_fifo task goes to the pool's handler",
          "[scope_fifo][spawn][exceptions]") {
  std::atomic<int> handled{0};
  std::atomic<int> ran{0};
  {
    weft::thread_pool pool({.num_threads = 2, .on_task_exception = [&](std::exception_ptr e) {
                              try {
                                std::rethrow_exception(e);
                              } catch (const weft_test::test_error& err) {
                                handled.fetch_add(err.depth);
                              }
                            }});
    for (int i = 0; i < 100; ++i)
      pool.spawn_fifo([&ran, i] {
        ran.fetch_add(1);
        if (i % 10 == 0) throw weft_test::test_error{1};
      });
    pool.install([&] {
      weft::spawn_fifo([] { throw weft_test::test_error{1}; });
      weft::wait_idle();
    });
    pool.wait_idle();
    REQUIRE(handled.load() == 11);
    REQUIRE(pool.install([] { return 42; }) == 42);
  }
  REQUIRE(ran.load() == 100);
}
