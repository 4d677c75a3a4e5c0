// SPDX-License-Identifier: MIT
// weft::async, weft::future, then, when_all: values, exceptions, helping waits, stolen tasks.
#include <catch2/catch.hpp>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {
long fib_async(int n) {
  if (n < 2) return n;
  auto a = weft::async([n] { return fib_async(n - 1); });
  const long b = fib_async(n - 2);
  return a.get() + b;
}
}  // namespace

TEST_CASE("async returns its value through get", "[future][requirement]") {
  REQUIRE(fib_async(20) == 6765);
  weft::thread_pool pool({.num_threads = 2});
  REQUIRE(pool.install([] { return fib_async(22); }) == 17711);
  auto f = weft::async([] { return std::string("text"); });
  REQUIRE(f.valid());
  REQUIRE(f.get() == "text");
  REQUIRE_FALSE(f.valid());
  auto v = weft::async([] {});
  v.wait();
  REQUIRE(v.is_ready());
  v.get();
  auto p = weft::async([] { return std::make_unique<int>(5); });  // move-only value
  REQUIRE(*p.get() == 5);
}

TEST_CASE("futures collected out of order, across threads, and destroyed unread",
          "[future][requirement]") {
  weft::thread_pool pool({.num_threads = 3});
  pool.install([] {
    for (int round = 0; round < 50; ++round) {
      std::vector<weft::future<int>> fs;
      for (int i = 0; i < 64; ++i) fs.push_back(weft::async([i] { return i * i; }));
      long sum = 0;
      for (int i = 63; i >= 0; i -= 2) sum += fs[static_cast<std::size_t>(i)].get();
      std::atomic<int> ran{0};
      { auto unread = weft::async([&ran] { ran.fetch_add(1); }); }  // the destructor waits
      REQUIRE(ran.load() == 1);
      long expected = 0;
      for (int i = 63; i >= 0; i -= 2) expected += i * i;
      REQUIRE(sum == expected);
    }  // the other half are destroyed unread: their destructors wait
  });
  // A future moved to another thread and read there.
  auto f = pool.install([] { return weft::async([] { return 7; }); });
  int got = 0;
  std::thread reader([&] { got = f.get(); });
  reader.join();
  REQUIRE(got == 7);
}

namespace {
// Counts the live objects of its kind: a result a future drops must be destroyed.
struct counted {
  static inline std::atomic<int> live{0};
  counted() { live.fetch_add(1); }
  counted(const counted&) { live.fetch_add(1); }
  counted(counted&&) noexcept { live.fetch_add(1); }
  ~counted() { live.fetch_sub(1); }
};
struct counted_error : counted {};
}  // namespace

TEST_CASE("a future destroyed unread destroys its task's value or exception",
          "[future][exceptions]") {
  weft::thread_pool pool({.num_threads = 2});
  pool.install([] {
    for (int round = 0; round < 100; ++round) {
      { auto unread = weft::async([] { return counted{}; }); }
      { auto unread = weft::async([]() -> int { throw counted_error{}; }); }
      {  // taken by the other thread, or run by the destructor's wait: either way
        auto a = weft::async([] { return counted{}; });
        auto b = weft::async([]() -> counted { throw counted_error{}; });
      }
      REQUIRE(counted::live.load() == 0);
    }
  });
  { auto unread = weft::async([]() -> counted { throw counted_error{}; }); }  // from outside
  REQUIRE(counted::live.load() == 0);
}

TEST_CASE("get rethrows the task's exception", "[future][exceptions]") {
  auto f = weft::async([]() -> int { throw weft_test::test_error{3}; });
  REQUIRE_THROWS_AS(f.get(), weft_test::test_error);
  REQUIRE_FALSE(f.valid());
  REQUIRE(fib_async(10) == 55);  // the pool stays usable
}

TEST_CASE("then and when_all", "[future][requirement]") {
  auto twice = weft::async([] { return 21; }).then([](int x) { return 2 * x; });
  REQUIRE(twice.get() == 42);
  auto after_void = weft::async([] {}).then([] { return std::string("done"); });
  REQUIRE(after_void.get() == "done");
  auto all = weft::when_all(weft::async([] { return 1; }), weft::async([] {}),
                            weft::async([] { return std::string("x"); }));
  auto [a, u, s] = all.get();
  REQUIRE(a == 1);
  REQUIRE(u == weft::unit{});
  REQUIRE(s == "x");
  auto failing = weft::when_all(weft::async([] { return 1; }),
                                weft::async([]() -> int { throw weft_test::test_error{9}; }));
  REQUIRE_THROWS_AS(failing.get(), weft_test::test_error);
}

// A continuation exists on no deque until its inputs are ready (F4): the owner's wait runs
// its own deque down to the inputs, which start it. On one thread nothing else could run
// them: a wait that did not reach them would never return.
TEST_CASE("then and when_all start once their inputs are ready, on one thread too",
          "[future][requirement]") {
  for (const std::size_t threads : {std::size_t{1}, std::size_t{2}}) {
    weft::thread_pool pool({.num_threads = threads});
    const long chained = pool.install([] {
      auto first = weft::async([] { return fib_async(12); });
      auto second = std::move(first).then([](long x) { return x + 1; });
      auto third = std::move(second).then([](long x) { return x * 2; });
      return third.get();
    });
    REQUIRE(chained == (144 + 1) * 2);
    const long all = pool.install([] {
      auto a = weft::async([] { return fib_async(10); });
      auto ready = weft::async([] { return 1L; });
      ready.wait();
      auto b = weft::async([] { return fib_async(11); });
      auto [x, y, z] = weft::when_all(std::move(a), std::move(ready), std::move(b)).get();
      return x + y + z;
    });
    REQUIRE(all == 55 + 1 + 89);
    // Built inside the pool, read outside it: the last input's runner starts it.
    auto outside_read = pool.install([] {
      return weft::when_all(weft::async([] { return fib_async(9); }),
                            weft::async([] { return fib_async(8); }))
          .then([](std::tuple<long, long> t) { return std::get<0>(t) + std::get<1>(t); });
    });
    REQUIRE(outside_read.get() == 34 + 21);
    // Built outside the pool on futures it runs: the continuation is injected.
    auto a = pool.install([] { return weft::async([] { return fib_async(13); }); });
    auto b = pool.install([] { return weft::async([] { return fib_async(7); }); });
    auto sum = weft::when_all(std::move(a), std::move(b)).then([](std::tuple<long, long> t) {
      return std::get<0>(t) + std::get<1>(t);
    });
    REQUIRE(sum.get() == 233 + 13);
  }
}

TEST_CASE("then and when_all pass an input's exception on, and free everything unread",
          "[future][exceptions]") {
  weft::thread_pool pool({.num_threads = 2});
  pool.install([] {
    auto thrown = weft::async([]() -> int { throw weft_test::test_error{3}; })
                      .then([](int x) { return x + 1; })
                      .then([](int x) { return x + 1; });
    REQUIRE_THROWS_AS(thrown.get(), weft_test::test_error);
    auto both = weft::when_all(weft::async([] { return std::string(100, 'a'); }),
                               weft::async([]() -> int { throw weft_test::test_error{4}; }));
    REQUIRE_THROWS_AS(both.get(), weft_test::test_error);
    // Destroyed unread, still pending: the destructor waits for the inputs and the task.
    auto unread = weft::async([] { return std::string(100, 'b'); }).then([](std::string s) {
      return s + "c";
    });
  });
}

TEST_CASE("async trees from 8 outside threads", "[future][stress]") {
  weft::thread_pool pool({.num_threads = 2});
  const std::uint64_t rounds = weft_test::stress_iters(200) / 20 + 1;
  std::vector<std::thread> outside;
  std::atomic<long> total{0};
  for (int t = 0; t < 8; ++t)
    outside.emplace_back([&] {
      for (std::uint64_t r = 0; r < rounds; ++r) {
        auto f = pool.install([] { return weft::async([] { return fib_async(15); }); });
        total.fetch_add(f.get());
      }
    });
  for (auto& t : outside) t.join();
  REQUIRE(total.load() == static_cast<long>(8 * rounds * 610));
}

namespace {
// Work the optimiser cannot drop, `n` steps long: the races below vary who arrives first.
long spin_work(long n) {
  std::atomic<long> acc{0};
  for (long i = 0; i < n; ++i) acc.fetch_add(i, std::memory_order_relaxed);
  return acc.load(std::memory_order_relaxed);
}
}  // namespace

// The waiter's registration (a CAS of its latch into the task's state word) against the
// runner's exchange to `ready`: the task is published (a thread is hungry at the start)
// and run by the other worker, or taken back, while the future's owner reaches get()
// earlier or later; outside threads wait on a futex latch the same way.
TEST_CASE("a future's waiter and its task's runner race", "[future][stress]") {
  const std::uint64_t rounds = weft_test::stress_iters(2000);
  for (const std::size_t threads : {std::size_t{2}, std::size_t{7}}) {
    weft::thread_pool pool({.num_threads = threads});
    long expected = 0;
    long total = 0;
    for (std::uint64_t r = 0; r < rounds; ++r) {
      const long task_steps = static_cast<long>(r % 37) * 8;
      const long owner_steps = static_cast<long>((r * 7) % 41) * 8;
      expected += spin_work(task_steps) + 1;
      total += pool.install([&] {
        auto f = weft::async([task_steps] { return spin_work(task_steps) + 1; });
        spin_work(owner_steps);
        return f.get();
      });
      // The future leaves the pool unread: an outside thread waits for it.
      auto later = pool.install(
          [task_steps] { return weft::async([task_steps] { return spin_work(task_steps); }); });
      spin_work(owner_steps);
      total += later.get() + 1;
      expected += spin_work(task_steps) + 1;
    }
    REQUIRE(total == expected);
  }
}
