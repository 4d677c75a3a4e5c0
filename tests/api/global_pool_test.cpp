// SPDX-License-Identifier: MIT
// weft::configure_global, shutdown_global, fork, and the pure queries outside every pool.
// Its own executable: the first case must run before anything has created the global pool,
// and the later ones start by shutting down what an earlier one left. Black-box.
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "thread_names.hpp"
#include "weft/weft.hpp"

using weft_test::thread_names;

TEST_CASE("configure_global sizes and names the global pool before its first use",
          "[pool][global]") {
  // Pure queries: they answer without creating the pool.
  REQUIRE(weft::num_threads() >= 1);
  REQUIRE_FALSE(weft::thread_index().has_value());
  REQUIRE(weft_test::threads_named("weft") == 0);

  // What a pool could not be built with is refused now, not at first use.
  REQUIRE_THROWS_AS(weft::configure_global({.num_threads = 2, .numa = weft::numa::node(4095)}),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(weft::configure_global({.num_threads = 2,
                                            .pin = weft::pin::spread,
                                            .numa = weft::numa::spread}),
                    std::invalid_argument);
  REQUIRE(weft_test::threads_named("weft") == 0);

  weft::pool_options first;
  first.num_threads = 5;
  weft::configure_global(std::move(first));  // replaced before first use: allowed
  REQUIRE(weft::num_threads() == 5);  // the size is resolved again for each configuration
  weft::pool_options options;
  options.num_threads = 3;
  options.thread_name = "global";
  weft::configure_global(std::move(options));
  REQUIRE(weft::num_threads() == 3);
  REQUIRE(weft_test::threads_named("weft") + weft_test::threads_named("global") == 0);

  // The first call outside every pool that forks creates it with those options (a small
  // pipeline may run sequentially without it).
  const auto [inside, one] = weft::join([] { return weft::num_threads(); }, [] { return 1; });
  REQUIRE(inside == 3);
  REQUIRE(one == 1);
  REQUIRE(weft::num_threads() == 3);
  REQUIRE(weft_test::threads_named("global") == 2);
  const auto names = thread_names();
  REQUIRE(names.count("global-1") == 1);
  REQUIRE(names.count("global-2") == 1);
  REQUIRE(weft::iter(std::vector<long>{1, 2, 3, 4}).sum() == 10);

  // Asking again for what it has is a no-op; anything else is an error that says why.
  weft::configure_global({.num_threads = 3});
  weft::pool_options same_name;
  same_name.num_threads = 3;
  same_name.thread_name = "global";
  weft::configure_global(std::move(same_name));
  REQUIRE_THROWS_AS(weft::configure_global({.num_threads = 4}), std::logic_error);
  REQUIRE_THROWS_WITH(weft::configure_global({.num_threads = 4}),
                      Catch::Contains("exists already (3 threads"));
  weft::pool_options handler;
  handler.num_threads = 3;
  handler.on_thread_start = [](std::size_t) {};
  REQUIRE_THROWS_AS(weft::configure_global(std::move(handler)), std::logic_error);
  REQUIRE_THROWS_AS(weft::configure_global({.num_threads = 3, .numa = weft::numa::spread}),
                    std::logic_error);
  REQUIRE(weft::iter(std::vector<long>{5, 6}).sum() == 11);  // still usable
}

TEST_CASE("shutdown_global waits for detached tasks, releases the threads, and a new pool "
          "follows", "[pool][global]") {
  weft::shutdown_global();  // whatever an earlier case left
  weft::configure_global({.num_threads = 3});
  REQUIRE(weft_test::threads_named("weft") == 0);
  for (int round = 0; round < 3; ++round) {
    REQUIRE(weft::join([] { return weft::num_threads(); }, [] { return 0; }).first == 3);
    REQUIRE(weft_test::threads_named("weft") == 2);
    std::atomic<int> ran{0};
    for (int i = 0; i < 100; ++i) weft::spawn([&ran] { ran.fetch_add(1); });
    weft::shutdown_global();  // waits for the 100 tasks first
    REQUIRE(ran.load() == 100);
    REQUIRE(weft_test::threads_named("weft") == 0);
    REQUIRE(weft::num_threads() == 3);  // the options stay for the next pool
  }
  weft::shutdown_global();  // none exists: a no-op
  REQUIRE(weft::iter(std::vector<long>{1, 2}).sum() == 3);
}

#if !WEFT_TSAN  // ThreadSanitizer does not follow a multi-threaded fork
TEST_CASE("a forked child gets a fresh global pool", "[pool][global]") {
  weft::shutdown_global();
  weft::pool_options options;
  options.num_threads = 2;
  options.thread_name = "forked";
  weft::configure_global(std::move(options));
  // The parent's pool exists and has worked.
  REQUIRE(weft::join([] { return 1; }, [] { return 2; }) == std::pair{1, 2});
  std::vector<long> v(200000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<long>(i);
  const long expected = weft::iter(v).sum();

  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // Only this thread exists here: the first parallel call builds a new pool.
    const bool ok = weft::iter(v).sum() == expected &&
                    weft::join([] { return weft::num_threads(); }, [] { return 0; }).first == 2 &&
                    weft_test::threads_named("forked") == 1;
    std::_Exit(ok ? 0 : 1);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  REQUIRE(weft::iter(v).sum() == expected);  // the parent's pool is untouched
}
#endif
