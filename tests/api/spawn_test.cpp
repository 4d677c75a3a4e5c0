// SPDX-License-Identifier: MIT
// weft::spawn (detached tasks), wait_idle, the pool's exception handler and destructor.
#include <catch2/catch.hpp>

#include <atomic>
#include <exception>
#include <memory>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

TEST_CASE("detached tasks all run and wait_idle waits for them", "[spawn][requirement]") {
  auto ran = std::make_shared<std::atomic<int>>(0);
  for (int i = 0; i < 1000; ++i) weft::spawn([ran] { ran->fetch_add(1); });
  weft::wait_idle();
  REQUIRE(ran->load() == 1000);
  // Detached tasks spawning detached tasks, from inside the pool.
  weft::thread_pool pool({.num_threads = 2});
  std::atomic<int> nodes{0};
  struct node {
    std::atomic<int>* nodes;
    int depth;
    void operator()() const {
      nodes->fetch_add(1);
      if (depth > 0) {
        weft::spawn(node{nodes, depth - 1});
        weft::spawn(node{nodes, depth - 1});
      }
    }
  };
  pool.spawn(node{&nodes, 10});
  pool.wait_idle();
  REQUIRE(nodes.load() == (1 << 11) - 1);
  pool.install([&] {
    weft::spawn(node{&nodes, 3});
    weft::wait_idle();  // the current pool's
  });
  REQUIRE(nodes.load() == (1 << 11) - 1 + 15);
}

TEST_CASE("a pool's destructor waits for its detached tasks", "[spawn][requirement]") {
  for (const std::size_t threads : {1, 2, 7}) {
    std::atomic<int> ran{0};
    {
      weft::thread_pool pool({.num_threads = threads});
      for (int i = 0; i < 500; ++i) pool.spawn([&ran] { ran.fetch_add(1); });
      pool.install([&] {
        for (int i = 0; i < 500; ++i) weft::spawn([&ran] { ran.fetch_add(1); });
      });
    }
    REQUIRE(ran.load() == 1000);
  }
}

TEST_CASE("an exception from a detached task goes to the pool's handler", "[spawn][exceptions]") {
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
      pool.spawn([&ran, i] {
        ran.fetch_add(1);
        if (i % 10 == 0) throw weft_test::test_error{1};
      });
    pool.wait_idle();
    REQUIRE(handled.load() == 10);
    // The pool stays usable.
    REQUIRE(pool.install([] { return 42; }) == 42);
  }
  REQUIRE(ran.load() == 100);
}

TEST_CASE("8 outside threads spawn detached tasks into one pool", "[spawn][stress]") {
  const std::uint64_t rounds = weft_test::stress_iters(200) / 20 + 1;
  for (std::uint64_t r = 0; r < rounds; ++r) {
    std::atomic<long> ran{0};
    {
      weft::thread_pool pool({.num_threads = 2});
      std::vector<std::thread> outside;
      for (int t = 0; t < 8; ++t)
        outside.emplace_back([&pool, &ran] {
          for (int i = 0; i < 200; ++i)
            pool.spawn([&ran, &pool] {
              ran.fetch_add(1, std::memory_order_relaxed);
              pool.spawn([&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
            });
        });
      for (auto& t : outside) t.join();
    }  // the destructor waits
    REQUIRE(ran.load() == 8 * 200 * 2);
  }
}
