// SPDX-License-Identifier: MIT
// Cancellation with std::stop_token, black-box: weft::scope(token, body), task_group(token),
// iter(...).with_stop(token), weft::stop_requested().
#include <catch2/catch.hpp>

#include "stop_source_warning.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <stop_token>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

TEST_CASE("a scope whose token is stopped before it starts runs the body but no task",
          "[cancel][scope][requirement]") {
  std::stop_source source;
  source.request_stop();
  std::atomic<int> ran{0};
  bool body_saw_stop = false;
  const int result = weft::scope(source.get_token(), [&](weft::task_scope& s) {
    for (int i = 0; i < 100; ++i) s.spawn([&] { ran.fetch_add(1, std::memory_order_relaxed); });
    body_saw_stop = s.stop_requested();
    return 7;
  });
  REQUIRE(result == 7);
  REQUIRE(body_saw_stop);
  REQUIRE(ran.load() == 0);
}

TEST_CASE("tasks spawned after request_stop returns never run, and the scope returns normally",
          "[cancel][scope][requirement]") {
  for (std::size_t threads : {1u, 2u, 5u}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      std::stop_source source;
      std::atomic<int> before{0};
      std::atomic<int> after{0};
      weft::scope(source.get_token(), [&](weft::task_scope& s) {
        for (int i = 0; i < 500; ++i) s.spawn([&] { before.fetch_add(1, std::memory_order_relaxed); });
        source.request_stop();
        for (int i = 0; i < 500; ++i) s.spawn([&] { after.fetch_add(1, std::memory_order_relaxed); });
      });
      REQUIRE(after.load() == 0);
      REQUIRE(before.load() <= 500);
    });
  }
}

TEST_CASE("on one thread a stop from inside a task skips exactly the tasks not started",
          "[cancel][scope][requirement]") {
  weft::thread_pool pool({.num_threads = 1});
  pool.install([] {
    std::stop_source source;
    std::vector<int> order;
    weft::scope(source.get_token(), [&](weft::task_scope& s) {
      // LIFO on the spawning thread: 9 runs first, then 8, ...; 5 stops the rest.
      for (int i = 0; i < 10; ++i)
        s.spawn([&, i] {
          order.push_back(i);
          if (i == 5) source.request_stop();
        });
    });
    REQUIRE(order == std::vector<int>{9, 8, 7, 6, 5});
  });
}

TEST_CASE("a running task polls weft::stop_requested() and ends early",
          "[cancel][scope][requirement]") {
  for (std::size_t threads : {1u, 2u, 4u}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      std::stop_source source;
      std::atomic<bool> poller_ran{false};
      bool outside_before = weft::stop_requested();
      weft::scope(source.get_token(), [&](weft::task_scope& s) {
        s.spawn([&] {
          poller_ran.store(true);
          while (!weft::stop_requested()) std::this_thread::yield();
        });
        // On one thread the poller has not started (LIFO, nothing else runs the body's
        // tasks until it returns): the stop skips it. On more it may be polling already.
        source.request_stop();
      });
      REQUIRE_FALSE(outside_before);
      REQUIRE_FALSE(weft::stop_requested());  // outside the scope again
      if (threads == 1) REQUIRE_FALSE(poller_ran.load());
    });
  }
}

TEST_CASE("a scope without a stop source is never stopped", "[cancel][scope]") {
  std::atomic<int> ran{0};
  weft::scope(std::stop_token{}, [&](weft::task_scope& s) {
    for (int i = 0; i < 1000; ++i)
      s.spawn([&] {
        if (!weft::stop_requested()) ran.fetch_add(1, std::memory_order_relaxed);
      });
  });
  REQUIRE(ran.load() == 1000);
}

TEST_CASE("task_group with a stop token: canceled while stopped, also after wait",
          "[cancel][task_group][requirement]") {
  for (std::size_t threads : {1u, 3u}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([] {
      std::stop_source source;
      weft::task_group g(source.get_token());
      std::atomic<int> ran{0};
      for (int i = 0; i < 100; ++i) g.run([&] { ran.fetch_add(1, std::memory_order_relaxed); });
      REQUIRE(g.wait() == weft::task_group_status::complete);
      REQUIRE(ran.load() == 100);

      source.request_stop();
      REQUIRE(g.is_canceling());
      for (int i = 0; i < 100; ++i) g.run([&] { ran.fetch_add(1, std::memory_order_relaxed); });
      REQUIRE(g.wait() == weft::task_group_status::canceled);
      REQUIRE(ran.load() == 100);
      // The token stays stopped: so does the group.
      REQUIRE(g.is_canceling());
      g.run([&] { ran.fetch_add(1, std::memory_order_relaxed); });
      REQUIRE(g.wait() == weft::task_group_status::canceled);
      REQUIRE(ran.load() == 100);
    });
  }
}

TEST_CASE("task_group::cancel is seen by weft::stop_requested() in its tasks",
          "[cancel][task_group][requirement]") {
  weft::thread_pool pool({.num_threads = 2});
  pool.install([] {
    weft::task_group g;
    std::atomic<bool> saw{false};
    g.run([&] {
      g.cancel();
      saw.store(weft::stop_requested());
    });
    REQUIRE(g.wait() == weft::task_group_status::canceled);
    REQUIRE(saw.load());
  });
}

TEST_CASE("a stop requested from another thread stops a task_group's waiting tree",
          "[cancel][task_group]") {
  weft::thread_pool pool({.num_threads = 2});
  std::stop_source source;
  std::atomic<long> ran{0};
  std::thread stopper([&] {
    weft_test::eventually([&] { return ran.load() > 100; });
    source.request_stop();
  });
  pool.install([&] {
    weft::task_group g(source.get_token());
    // An unbounded tree: only the stop ends it.
    struct grow {
      weft::task_group& g;
      std::atomic<long>& ran;
      void operator()() const {
        ran.fetch_add(1, std::memory_order_relaxed);
        g.run(grow{g, ran});
        g.run(grow{g, ran});
      }
    };
    g.run(grow{g, ran});
    REQUIRE(g.wait() == weft::task_group_status::canceled);
  });
  stopper.join();
  REQUIRE(ran.load() > 100);
}

TEST_CASE("with_stop: a stopped token runs nothing and the result is the empty one",
          "[cancel][iter][requirement]") {
  std::stop_source source;
  source.request_stop();
  std::vector<long> v(100'000, 1);
  std::atomic<long> visited{0};
  weft::iter(v).with_stop(source.get_token()).for_each([&](long) {
    visited.fetch_add(1, std::memory_order_relaxed);
  });
  REQUIRE(visited.load() == 0);
  REQUIRE(weft::iter(v).with_stop(source.get_token()).sum() == 0);
  REQUIRE(weft::iter(v).filter([](long x) { return x > 0; }).with_stop(source.get_token()).count() == 0);
  const auto out = weft::iter(v).map([](long x) { return x + 1; }).with_stop(source.get_token()).to_vector();
  REQUIRE(out.size() == v.size());
  REQUIRE(std::count(out.begin(), out.end(), 0L) == static_cast<long>(v.size()));
}

TEST_CASE("with_stop: a stop during the run ends it at the next block",
          "[cancel][iter][requirement]") {
  for (std::size_t threads : {1u, 2u, 4u}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      constexpr std::size_t n = 20'000'000;
      std::stop_source source;
      std::atomic<std::size_t> visited{0};
      weft::range(std::size_t{0}, n).with_stop(source.get_token()).for_each([&](std::size_t) {
        if (visited.fetch_add(1, std::memory_order_relaxed) == 1000) source.request_stop();
      });
      REQUIRE(visited.load() > 1000);
      REQUIRE(visited.load() < n);
    });
  }
}

TEST_CASE("with_stop: an unstopped token changes nothing", "[cancel][iter]") {
  std::stop_source source;
  std::vector<long> v(1'000'000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<long>(i);
  REQUIRE(weft::iter(v).with_stop(source.get_token()).sum() ==
          static_cast<long>(v.size()) * static_cast<long>(v.size() - 1) / 2);
  REQUIRE(weft::iter(v).with_stop(source.get_token()).with_min_len(1000).max() == 999'999L);
  REQUIRE(weft::iter(v).filter([](long x) { return x % 3 == 0; }).with_stop(source.get_token()).count() ==
          333'334u);
  REQUIRE(weft::iter(v).with_stop(source.get_token()).find_first([](long x) { return x == 777'777; }) ==
          777'777L);
}
