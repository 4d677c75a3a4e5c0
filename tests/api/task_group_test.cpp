// SPDX-License-Identifier: MIT
// weft::task_group, black-box: run/wait, recursion into the group, reuse, exceptions,
// cancellation, waiting from outside the pool.
#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <thread>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {
void count_tree(weft::task_group& g, std::atomic<long>& nodes, int depth) {
  nodes.fetch_add(1, std::memory_order_relaxed);
  if (depth == 0) return;
  g.run([&g, &nodes, depth] { count_tree(g, nodes, depth - 1); });
  g.run([&g, &nodes, depth] { count_tree(g, nodes, depth - 1); });
}
}  // namespace

TEST_CASE("task_group runs every task before wait returns", "[task_group][requirement]") {
  std::atomic<long> sum{0};
  weft::task_group g;
  for (long i = 0; i < 10'000; ++i) g.run([&sum, i] { sum.fetch_add(i, std::memory_order_relaxed); });
  REQUIRE(g.wait() == weft::task_group_status::complete);
  REQUIRE(sum.load() == 10'000L * 9'999L / 2);
}

TEST_CASE("tasks run more tasks into their own group", "[task_group][requirement]") {
  std::atomic<long> nodes{0};
  weft::task_group g;
  g.run([&] { count_tree(g, nodes, 12); });
  g.wait();
  REQUIRE(nodes.load() == (1L << 13) - 1);
}

TEST_CASE("a task_group is reusable, inside a pool and across waits", "[task_group][requirement]") {
  weft::thread_pool pool({.num_threads = 3});
  pool.install([] {
    weft::task_group g;
    for (int round = 0; round < 50; ++round) {
      std::atomic<int> ran{0};
      for (int i = 0; i < 37; ++i) g.run([&ran] { ran.fetch_add(1); });
      REQUIRE(g.run_and_wait([&ran] { ran.fetch_add(1); }) == weft::task_group_status::complete);
      REQUIRE(ran.load() == 38);
      REQUIRE_FALSE(g.is_canceling());
    }
  });
}

TEST_CASE("wait inside a scope body and inside a join waits for tasks run before them",
          "[task_group][requirement]") {
  weft::thread_pool pool({.num_threads = 2});
  pool.install([] {
    for (int round = 0; round < 50; ++round) {
      std::atomic<int> ran{0};
      weft::task_group g;
      for (int i = 0; i < 20; ++i) g.run([&ran] { ran.fetch_add(1); });
      weft::scope([&](weft::task_scope& s) {
        s.spawn([&ran] { ran.fetch_add(100); });
        g.wait();  // the group's tasks lie below the scope body's frame: others take them
        REQUIRE(ran.load() % 100 == 20);
      });
      REQUIRE(ran.load() == 120);
      for (int i = 0; i < 20; ++i) g.run([&ran] { ran.fetch_add(1); });
      weft::join([&] { g.wait(); }, [&ran] { ran.fetch_add(1000); });
      REQUIRE(ran.load() == 1140);
    }
  });
}

TEST_CASE("the first exception cancels the group and is rethrown by wait",
          "[task_group][exceptions]") {
  for (int round = 0; round < 20; ++round) {
    std::atomic<int> started{0};
    weft::task_group g;
    g.run([] { throw weft_test::test_error{7}; });
    REQUIRE_THROWS_AS(g.wait(), weft_test::test_error);
    REQUIRE_FALSE(g.is_canceling());  // reset by wait
    // After the exception every task not yet started is skipped.
    g.run([&] {
      started.fetch_add(1);
      throw weft_test::test_error{8};
    });
    try {
      g.wait();
      FAIL("no exception");
    } catch (const weft_test::test_error& e) {
      REQUIRE(e.depth == 8);
    }
    REQUIRE(started.load() == 1);
    // The group and the pool stay usable.
    std::atomic<int> ran{0};
    g.run([&ran] { ran.fetch_add(1); });
    REQUIRE(g.wait() == weft::task_group_status::complete);
    REQUIRE(ran.load() == 1);
  }
}

TEST_CASE("cancel skips the tasks not started yet", "[task_group][cancel]") {
  weft::thread_pool pool({.num_threads = 1});
  pool.install([] {
    std::atomic<int> ran{0};
    weft::task_group g;
    // On a pool of one thread nothing starts before wait: cancel skips all of them.
    for (int i = 0; i < 100; ++i) g.run([&ran] { ran.fetch_add(1); });
    g.cancel();
    REQUIRE(g.is_canceling());
    REQUIRE(g.wait() == weft::task_group_status::canceled);
    REQUIRE(ran.load() == 0);
    REQUIRE_FALSE(g.is_canceling());
    // A task that cancels its own group: the tasks it ran afterwards are skipped.
    g.run([&] {
      for (int i = 0; i < 10; ++i) g.run([&ran] { ran.fetch_add(1); });
      g.cancel();
      ran.fetch_add(100);
    });
    REQUIRE(g.wait() == weft::task_group_status::canceled);
    REQUIRE(ran.load() == 100);
  });
}

TEST_CASE("run and wait from a thread outside the pool", "[task_group][requirement]") {
  weft::thread_pool pool({.num_threads = 2});
  weft::task_group* group = nullptr;
  pool.install([&] { group = new weft::task_group; });  // works on `pool`
  std::atomic<int> ran{0};
  std::thread outside([&] {
    for (int i = 0; i < 500; ++i) group->run([&ran] { ran.fetch_add(1); });
    REQUIRE(group->wait() == weft::task_group_status::complete);
  });
  outside.join();
  REQUIRE(ran.load() == 500);
  delete group;
}

TEST_CASE("the destructor waits for tasks still running", "[task_group][requirement]") {
  std::atomic<int> ran{0};
  {
    weft::task_group g;
    for (int i = 0; i < 1000; ++i) g.run([&ran] { ran.fetch_add(1); });
  }
  REQUIRE(ran.load() == 1000);
}

namespace {
thread_local bool inside_group_wait = false;
}  // namespace

// On a full deque run() runs its task at once: no slot of the group's, so wait() has none
// to drain down to. A scope's tasks fill one thread's deque; the task spawned after them
// runs inline and waits for a group there. Reaching below the height would run the scope's
// newest task inside the group's wait (and, on worker 0, pop a slot an earlier seat holder
// left: docs/protocols/spawn.md, "Seat release").
TEST_CASE("a group whose task ran at once on a full deque drains nothing else",
          "[task_group][requirement]") {
  weft::thread_pool pool({.num_threads = 1});
  const std::size_t fill = 5000;  // past a worker deque's 4,096 slots: the rest run at once
  std::atomic<std::size_t> ran{0};
  std::atomic<int> ran_inside_wait{0};
  pool.install([&] {
    weft::scope([&](weft::task_scope& s) {
      for (std::size_t i = 0; i < fill; ++i)
        s.spawn([&] {
          ++ran;
          if (inside_group_wait) ++ran_inside_wait;
        });
      s.spawn([&] {
        weft::task_group g;
        bool group_ran = false;
        g.run([&] { group_ran = true; });
        REQUIRE(group_ran);  // at once: the deque is full
        inside_group_wait = true;
        g.wait();
        inside_group_wait = false;
      });
    });
  });
  REQUIRE(ran.load() == fill);
  REQUIRE(ran_inside_wait.load() == 0);
}
