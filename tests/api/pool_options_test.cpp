// SPDX-License-Identifier: MIT
// weft::pool_options (thread names, stack size, start and exit handlers, pinning) and a movable
// weft::thread_pool: each option observed from outside the pool. Black-box.
#include <catch2/catch.hpp>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "test_support.hpp"
#include "thread_names.hpp"
#include "weft/weft.hpp"

using weft_test::thread_names;

namespace {
// The stack size of the calling thread, as the system reports it.
std::size_t own_stack_size() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  std::size_t size = 0;
  pthread_attr_getstacksize(&attr, &size);
  pthread_attr_destroy(&attr);
  return size;
}

// Start and exit calls per thread index, filled by the handlers (any thread).
struct handler_log {
  std::mutex mutex;
  std::multiset<std::size_t> started;
  std::multiset<std::size_t> exited;
  std::atomic<int> exit_before_start{0};
  weft::pool_options options(std::size_t threads) {
    weft::pool_options o;
    o.num_threads = threads;
    o.on_thread_start = [this](std::size_t i) {
      std::lock_guard<std::mutex> lock(mutex);
      started.insert(i);
    };
    o.on_thread_exit = [this](std::size_t i) {
      std::lock_guard<std::mutex> lock(mutex);
      if (started.count(i) == 0) exit_before_start.fetch_add(1);
      exited.insert(i);
    };
    return o;
  }
};

std::multiset<std::size_t> background_indices(std::size_t threads) {
  std::multiset<std::size_t> all;
  for (std::size_t i = 1; i < threads; ++i) all.insert(i);
  return all;
}
}  // namespace

TEST_CASE("pool threads carry the pool's name", "[pool][options]") {
  for (const std::size_t threads : {std::size_t{1}, std::size_t{2}, std::size_t{7}}) {
    {
      weft::pool_options o;
      o.num_threads = threads;
      o.thread_name = "render";
      weft::thread_pool pool(std::move(o));
      const auto names = thread_names();
      for (std::size_t i = 1; i < threads; ++i)
        REQUIRE(names.count("render-" + std::to_string(i)) == 1);
      REQUIRE(weft_test::threads_named("render") == threads - 1);
    }
    {
      weft::pool_options o;
      o.num_threads = threads;
      o.thread_name = "a-prefix-far-too-long-for-linux";
      weft::thread_pool pool(std::move(o));
      const auto names = thread_names();
      for (std::size_t i = 1; i < threads; ++i) {
        const std::string suffix = "-" + std::to_string(i);
        const std::string expected =
            std::string("a-prefix-far-too-long-for-linux").substr(0, 15 - suffix.size()) + suffix;
        REQUIRE(names.count(expected) == 1);
      }
    }
    weft::thread_pool unnamed({.num_threads = threads});
    if (threads > 1) REQUIRE(thread_names().count("weft-1") >= 1);
  }
}

TEST_CASE("start and exit handlers run once on each background thread", "[pool][options]") {
  for (const std::size_t threads : {std::size_t{1}, std::size_t{2}, std::size_t{7}}) {
    handler_log log;
    std::set<std::size_t> ran_on;
    {
      weft::thread_pool pool(log.options(threads));
      // Work on every thread: the handlers ran before any of it.
      std::mutex m;
      weft::broadcast(pool, [&](std::size_t i) {
        std::lock_guard<std::mutex> lock(m);
        ran_on.insert(i);
      });
      std::lock_guard<std::mutex> lock(log.mutex);
      REQUIRE(log.started == background_indices(threads));
      REQUIRE(log.exited.empty());
    }
    REQUIRE(ran_on.size() == threads);
    REQUIRE(log.started == background_indices(threads));
    REQUIRE(log.exited == background_indices(threads));
    REQUIRE(log.exit_before_start.load() == 0);
  }
}

TEST_CASE("stack_size sets the background threads' stacks", "[pool][options]") {
  for (const std::size_t threads : {std::size_t{2}, std::size_t{7}}) {
    for (const std::size_t requested : {std::size_t{1} << 20, std::size_t{3} << 20}) {
      weft::pool_options o;
      o.num_threads = threads;
      o.stack_size = requested;
      weft::thread_pool pool(std::move(o));
      std::vector<std::size_t> sizes(threads);
      weft::broadcast(pool, [&](std::size_t i) { sizes[i] = own_stack_size(); });
      for (std::size_t i = 1; i < threads; ++i) {
        REQUIRE(sizes[i] >= requested);
        REQUIRE(sizes[i] < requested + (std::size_t{1} << 20));
      }
    }
    // The default: 64 MiB.
    weft::thread_pool pool({.num_threads = threads});
    std::vector<std::size_t> sizes(threads);
    weft::broadcast(pool, [&](std::size_t i) { sizes[i] = own_stack_size(); });
    REQUIRE(sizes[1] >= (std::size_t{64} << 20));
  }
  weft::pool_options huge;
  huge.num_threads = 2;
  huge.stack_size = ~std::size_t{0} - 16;
  REQUIRE_THROWS_AS(weft::thread_pool(std::move(huge)), std::invalid_argument);
}

TEST_CASE("a thread_pool moves and leaves the moved-from pool empty", "[pool][options]") {
  handler_log log;
  weft::thread_pool a(log.options(3));
  REQUIRE(a.valid());
  weft::thread_pool b(std::move(a));
  REQUIRE_FALSE(a.valid());  // NOLINT(bugprone-use-after-move): the documented empty state
  REQUIRE(b.valid());
  REQUIRE(b.num_threads() == 3);
  REQUIRE(b.install([] { return weft::num_threads(); }) == 3);

  // Assignment destroys the target's pool first: its threads exit.
  weft::thread_pool c({.num_threads = 2});
  b = std::move(c);
  {
    std::lock_guard<std::mutex> lock(log.mutex);
    REQUIRE(log.exited == background_indices(3));
  }
  REQUIRE(b.num_threads() == 2);
  REQUIRE_FALSE(c.valid());  // NOLINT(bugprone-use-after-move)

  // Pools in a container, created conditionally.
  std::vector<weft::thread_pool> pools;
  for (std::size_t n = 1; n <= 3; ++n) pools.emplace_back(weft::pool_options{.num_threads = n});
  long total = 0;
  for (auto& p : pools) total += p.install([] { return static_cast<long>(weft::num_threads()); });
  REQUIRE(total == 6);
}

namespace {
// The CPUs the calling thread may run on.
std::vector<unsigned> own_affinity() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<unsigned> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(static_cast<unsigned>(c));
  return cpus;
}

// Each thread's affinity, by index, read on the thread itself (broadcast); and the one seen
// by each start handler.
struct affinity_report {
  std::vector<std::vector<unsigned>> on_thread;
  std::vector<std::vector<unsigned>> at_start;
};

affinity_report pinned_pool(std::size_t threads, weft::pinning pin) {
  affinity_report report;
  report.at_start.resize(threads);
  std::mutex m;
  weft::pool_options o;
  o.num_threads = threads;
  o.pin = std::move(pin);
  o.on_thread_start = [&](std::size_t i) {
    std::lock_guard<std::mutex> lock(m);
    report.at_start[i] = own_affinity();
  };
  weft::thread_pool pool(std::move(o));
  report.on_thread.resize(threads);
  weft::broadcast(pool, [&](std::size_t i) { report.on_thread[i] = own_affinity(); });
  return report;
}
}  // namespace

TEST_CASE("pin places each background thread on its CPU before it starts", "[pool][options]") {
  const std::vector<unsigned> cpus = own_affinity();  // the main thread: not pinned
  REQUIRE_FALSE(cpus.empty());
  for (const std::size_t threads : {std::size_t{1}, std::size_t{2}, std::size_t{7}}) {
    // A CPU list, reversed: thread i on list[i % size].
    const std::vector<unsigned> list(cpus.rbegin(), cpus.rend());
    const affinity_report r = pinned_pool(threads, weft::pinning(list));
    for (std::size_t i = 1; i < threads; ++i) {
      const std::vector<unsigned> expected{list[i % list.size()]};
      REQUIRE(r.on_thread[i] == expected);
      REQUIRE(r.at_start[i] == expected);
    }
    REQUIRE(r.on_thread[0] == own_affinity());  // the caller seat is the caller, unpinned

    for (const weft::pinning& policy : {weft::pinning(weft::pin::compact),
                                        weft::pinning(weft::pin::spread)}) {
      const affinity_report p = pinned_pool(threads, policy);
      std::set<unsigned> used;
      for (std::size_t i = 1; i < threads; ++i) {
        REQUIRE(p.on_thread[i].size() == 1);
        REQUIRE(p.at_start[i] == p.on_thread[i]);
        REQUIRE(std::find(cpus.begin(), cpus.end(), p.on_thread[i][0]) != cpus.end());
        used.insert(p.on_thread[i][0]);
      }
      // Distinct CPUs while there are enough of them.
      REQUIRE(used.size() == std::min(threads - 1, cpus.size()));
    }
  }
  // Unpinned (the default): every thread may run on every CPU the process may.
  const affinity_report free_threads = pinned_pool(3, weft::pinning{});
  for (const auto& a : free_threads.on_thread) REQUIRE(a == cpus);

  REQUIRE_THROWS_AS(weft::thread_pool({.num_threads = 2, .pin = weft::pinning(std::vector<unsigned>{})}),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(weft::thread_pool({.num_threads = 2, .pin = {static_cast<unsigned>(CPU_SETSIZE - 1)}}),
                    std::invalid_argument);
}
