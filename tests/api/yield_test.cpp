// SPDX-License-Identifier: MIT
// weft::yield_now, weft::yield_local, weft::current_thread_has_pending_tasks: each one's effect
// observed on pools of 1, 2 and 7 threads. Other threads are kept from taking the work under
// test by a weft::thread_limit of 1, created while every background thread sleeps (so that
// none is mid-search), which makes each outcome deterministic.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstddef>
#include <thread>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {
// Every background thread of `pool` blocked in the kernel: none is searching for work.
void wait_all_asleep(weft::thread_pool& pool) {
  REQUIRE(weft_test::eventually([&] { return pool.stats().sleeping == pool.num_threads() - 1; }));
}
}  // namespace

TEST_CASE("yield: outside every pool there is nothing to yield to", "[yield]") {
  CHECK_FALSE(weft::yield_now().has_value());
  CHECK_FALSE(weft::yield_local().has_value());
  CHECK_FALSE(weft::current_thread_has_pending_tasks().has_value());
}

TEST_CASE("yield_local runs a task spawned into the scope on this thread", "[yield]") {
  for (const std::size_t threads : {1, 2, 7}) {
    CAPTURE(threads);
    weft::thread_pool pool({.num_threads = threads});
    wait_all_asleep(pool);
    const weft::thread_limit only_the_caller(1);
    pool.install([&] {
      CHECK(weft::current_thread_has_pending_tasks() == false);
      CHECK(weft::yield_local() == weft::yield_result::idle);
      CHECK(weft::yield_now() == weft::yield_result::idle);
      const std::thread::id self = std::this_thread::get_id();
      std::atomic<int> runs{0};
      std::thread::id ran_on{};
      weft::scope([&](weft::task_scope& s) {
        s.spawn([&] {
          ran_on = std::this_thread::get_id();
          runs.fetch_add(1);
        });
        CHECK(weft::current_thread_has_pending_tasks() == true);
        CHECK(runs.load() == 0);
        CHECK(weft::yield_local() == weft::yield_result::executed);
        CHECK(runs.load() == 1);
        CHECK(ran_on == self);
        CHECK(weft::current_thread_has_pending_tasks() == false);
        CHECK(weft::yield_local() == weft::yield_result::idle);
      });
      CHECK(runs.load() == 1);
    });
  }
}

TEST_CASE("yield_now runs the newest task first and one task a call", "[yield]") {
  for (const std::size_t threads : {1, 2, 7}) {
    CAPTURE(threads);
    weft::thread_pool pool({.num_threads = threads});
    wait_all_asleep(pool);
    const weft::thread_limit only_the_caller(1);
    pool.install([&] {
      int order[3] = {-1, -1, -1};
      int next = 0;
      weft::scope([&](weft::task_scope& s) {
        for (int i = 0; i < 3; ++i) s.spawn([&, i] { order[next++] = i; });
        CHECK(weft::yield_now() == weft::yield_result::executed);
        CHECK(next == 1);
        CHECK(weft::yield_now() == weft::yield_result::executed);
        CHECK(weft::yield_now() == weft::yield_result::executed);
        CHECK(weft::yield_now() == weft::yield_result::idle);
      });
      CHECK(order[0] == 2);
      CHECK(order[1] == 1);
      CHECK(order[2] == 0);
    });
  }
}

TEST_CASE("yield never runs the other half of an enclosing join", "[yield]") {
  for (const std::size_t threads : {1, 2, 7}) {
    CAPTURE(threads);
    weft::thread_pool pool({.num_threads = threads});
    wait_all_asleep(pool);
    const weft::thread_limit only_the_caller(1);
    pool.install([&] {
      bool b_ran = false;
      weft::join(
          [&] {
            CHECK(weft::yield_local() == weft::yield_result::idle);
            CHECK(weft::yield_now() == weft::yield_result::idle);
            CHECK_FALSE(b_ran);
          },
          [&] { b_ran = true; });
      CHECK(b_ran);
    });
  }
}

// With a limit of 1 a pool takes jobs from outside through its caller seat only: a job
// submitted while this thread holds it waits for it, and yield_now runs it here; yield_local
// never does.
TEST_CASE("yield_now runs a job submitted from outside the pool", "[yield]") {
  for (const std::size_t threads : {1, 2, 7}) {
    CAPTURE(threads);
    weft::thread_pool pool({.num_threads = threads});
    wait_all_asleep(pool);
    const weft::thread_limit only_the_caller(1);
    std::atomic<bool> submitted_ran{false};
    std::thread::id ran_on{};
    pool.install([&] {
      std::thread outside([&] {
        pool.install([&] {
          ran_on = std::this_thread::get_id();
          submitted_ran.store(true);
        });
      });
      for (int i = 0; i < 1000; ++i) CHECK(weft::yield_local() == weft::yield_result::idle);
      CHECK(weft_test::eventually(
          [&] { return weft::yield_now() == weft::yield_result::executed; }));
      CHECK(submitted_ran.load());
      CHECK(ran_on == std::this_thread::get_id());
      outside.join();
    });
  }
}
