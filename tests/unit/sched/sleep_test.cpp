// SPDX-License-Identifier: MIT
// The sleep module's counters and wake-up paths, driven from test threads.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

#include "injector.hpp"
#include "sleep.hpp"
#include "test_support.hpp"

using weft::detail::core_latch;
using weft::detail::sleep_module;

namespace {
const weft::detail::injector none;  // nothing is ever injected in these tests
}  // namespace

TEST_CASE("an idle thread falls asleep and a latch set wakes it", "[sleep][requirement]") {
  sleep_module sleep(2);
  core_latch latch;
  std::thread sleeper([&] {
    auto idle = sleep.start_looking(1);
    while (!latch.probe()) sleep.no_work_found(idle, latch, none);
    sleep.work_found();
  });
  REQUIRE(weft_test::eventually([&] { return sleep.sleeping() == 1; }));
  REQUIRE(sleep.inactive() == 1);
  if (latch.set()) sleep.wake_specific(1);
  sleeper.join();
  REQUIRE(sleep.sleeping() == 0);
  REQUIRE(sleep.inactive() == 0);
}

TEST_CASE("new jobs wake a sleeper, the waker decrements the count", "[sleep][requirement]") {
  sleep_module sleep(3);
  core_latch latch;
  std::atomic<bool> job_posted{false};
  std::thread sleeper([&] {
    auto idle = sleep.start_looking(2);
    while (!job_posted.load()) sleep.no_work_found(idle, latch, none);
    sleep.work_found();
  });
  REQUIRE(weft_test::eventually([&] { return sleep.sleeping() == 1; }));
  job_posted.store(true);
  sleep.new_internal_jobs(1, true);
  sleeper.join();
  REQUIRE(sleep.sleeping() == 0);
}

TEST_CASE("announced sleepiness is cancelled by a job posted in between", "[sleep][requirement]") {
  sleep_module sleep(1);
  core_latch latch;
  auto idle = sleep.start_looking(0);
  for (std::uint32_t i = 0; i <= sleep_module::rounds_until_sleepy; ++i)
    sleep.no_work_found(idle, latch, none);
  sleep.new_internal_jobs(1, true);  // jec moves: the next sleep attempt must not block
  sleep.no_work_found(idle, latch, none);
  sleep.no_work_found(idle, latch, none);
  REQUIRE(sleep.sleeping() == 0);
  sleep.work_found();
}
