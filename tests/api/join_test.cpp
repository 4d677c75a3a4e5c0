// SPDX-License-Identifier: MIT
// weft::join, black-box: results, void sides, nesting depth, allocation, exceptions.
#include <catch2/catch.hpp>

#include <atomic>
#include <memory>
#include <type_traits>
#include <thread>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>

#include "fib.hpp"
#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {
std::atomic<std::size_t> allocations{0};
}  // namespace

// ASan's own operator new serves allocations made before this replacement is bound (Catch2's
// static registrations); freeing those here looks like a mismatch. Only that check is relaxed,
// and only in this binary.
extern "C" const char* __asan_default_options() { return "alloc_dealloc_mismatch=0"; }

// Counts every allocation of the process (all four replaceable forms, so that sanitizers see
// matching pairs).
void* operator new(std::size_t n) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void* operator new(std::size_t n, std::align_val_t a) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  const auto align = static_cast<std::size_t>(a);
  if (void* p = std::aligned_alloc(align, (n + align - 1) / align * align)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) { return operator new(n, a); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace {
using weft_test::par_fib;
using weft_test::seq_fib;

// Depth-first chain: every level forks, so the deque and the stack both grow with depth.
std::size_t chain(std::size_t depth) {
  if (depth == 0) return 0;
  auto [a, b] = weft::join([&] { return chain(depth - 1); }, [] { return std::size_t{1}; });
  return a + b;
}

// Runs `f` as the `a` side of the innermost of `depth` nested joins.
template <class F>
void run_at_depth(int depth, F& f) {
  if (depth == 0) return f();
  weft::join([&] { run_at_depth(depth - 1, f); }, [] {});
}
template <class F>
void run_at_depth(int depth, F&& f) {
  run_at_depth(depth, f);
}

// Throws at `throw_depth` on the chosen side(s); counts how many leaves ran.
long throwing_tree(int depth, int throw_depth, bool left, bool right, std::atomic<long>& leaves) {
  if (depth == 0) {
    leaves.fetch_add(1, std::memory_order_relaxed);
    return 1;
  }
  auto [a, b] = weft::join(
      [&] {
        if (depth == throw_depth && left) throw weft_test::test_error{-depth};
        return throwing_tree(depth - 1, throw_depth, left, right, leaves);
      },
      [&] {
        if (depth == throw_depth && right) throw weft_test::test_error{depth};
        return throwing_tree(depth - 1, throw_depth, left, right, leaves);
      });
  return a + b;
}
}  // namespace

TEST_CASE("join returns both results", "[join][interface]") {
  auto [a, b] = weft::join([] { return 1; }, [] { return std::string("two"); });
  REQUIRE(a == 1);
  REQUIRE(b == "two");
}

TEST_CASE("void sides come back as weft::unit, both void returns void", "[join][interface]") {
  int x = 0, y = 0;
  auto [u, v] = weft::join([&] { x = 1; }, [&] { return 2; });
  STATIC_REQUIRE(std::is_same_v<decltype(u), weft::unit>);
  REQUIRE(v == 2);
  weft::join([&] { x = 3; }, [&] { y = 4; });
  STATIC_REQUIRE(std::is_void_v<decltype(weft::join([] {}, [] {}))>);
  REQUIRE(x == 3);
  REQUIRE(y == 4);
}

TEST_CASE("fib(25) with a join at every level equals the sequential result", "[join][requirement]") {
  REQUIRE(par_fib(25) == seq_fib(25));
  weft::thread_pool pool({.num_threads = 2});
  REQUIRE(pool.install([] { return par_fib(25); }) == seq_fib(25));
}

// The inner chain's depth: 20,000 joins, or 12,000 under a sanitizer. ThreadSanitizer stores
// the stack of a thread that blocks (the joiner sleeping on a stolen B) and checks that it
// holds fewer than 65,536 frames; 20,000 levels of chain, join and lambda come close to
// that at -O1, and cross it when the inliner keeps one more frame per level.
constexpr std::size_t inner_chain = weft_test::under_sanitizer ? 12'000 : 20'000;

TEST_CASE("joins nest 10,000 deep (beyond the deque's capacity)", "[join][requirement]") {
  std::size_t outside = 0, inside = 0;
  weft_test::run_on_big_stack([&] {
    outside = chain(10'000);
    weft::thread_pool pool({.num_threads = 2});
    inside = pool.install([] { return chain(inner_chain); });
  });
  REQUIRE(outside == 10'000);
  REQUIRE(inside == inner_chain);
}

TEST_CASE("a join allocates nothing", "[join][resource_usage]") {
  weft::thread_pool pool({.num_threads = 1});
  pool.install([] { return par_fib(10); });  // warm up
  const std::size_t before = allocations.load();
  const long r = pool.install([] { return par_fib(20); });
  REQUIRE(r == 6765);
  REQUIRE(allocations.load() == before);
}

TEST_CASE("an exception from one side propagates after both sides finished", "[join][exceptions]") {
  auto rng = weft_test::seeded_rng(1);
  for (int round = 0; round < 40; ++round) {
    const int depth = 8;
    const int throw_depth = 1 + static_cast<int>(rng() % depth);
    const bool left = round % 2 == 0;
    std::atomic<long> leaves{0};
    try {
      throwing_tree(depth, throw_depth, left, !left, leaves);
      FAIL("no exception");
    } catch (const weft_test::test_error& e) {
      REQUIRE(e.depth == (left ? -throw_depth : throw_depth));
    }
  }
  REQUIRE(par_fib(15) == seq_fib(15));  // the pool stays usable
}

TEST_CASE("when both sides throw, the first side's exception wins", "[join][exceptions]") {
  for (int throw_depth = 1; throw_depth <= 6; ++throw_depth) {
    std::atomic<long> leaves{0};
    try {
      throwing_tree(6, throw_depth, true, true, leaves);
      FAIL("no exception");
    } catch (const weft_test::test_error& e) {
      REQUIRE(e.depth == -throw_depth);  // the leftmost throw wins at every level
    }
  }
}

TEST_CASE("joins beyond the private bound keep join's contract", "[join][requirement][exceptions]") {
  // On a 1-thread pool no thread is ever idle, so below the first few levels every join is
  // unrecorded (ADR 0006): b runs inline, never pushed. The contract must not change there.
  weft::thread_pool pool({.num_threads = 1});
  pool.install([] {
    REQUIRE(chain(3'000) == 3'000);
    for (int depth = 8; depth <= 40; depth += 16) {
      bool b_ran = false;
      try {
        run_at_depth(depth, [&] {
          weft::join([]() -> int { throw weft_test::test_error{1}; }, [&] { b_ran = true; });
        });
        FAIL("no exception");
      } catch (const weft_test::test_error& e) {
        REQUIRE(e.depth == 1);
      }
      REQUIRE(b_ran);  // `a` threw, yet `b` ran before join gave up
      try {
        run_at_depth(depth, [] {
          weft::join([] { throw weft_test::test_error{1}; }, [] { throw weft_test::test_error{2}; });
        });
        FAIL("no exception");
      } catch (const weft_test::test_error& e) {
        REQUIRE(e.depth == 1);  // both threw: the first side's wins
      }
      try {
        run_at_depth(depth, [] {
          auto [x, y] = weft::join([] { return std::string(100, 'x'); },
                                   []() -> int { throw weft_test::test_error{2}; });
          static_cast<void>(x);
          static_cast<void>(y);
        });
        FAIL("no exception");
      } catch (const weft_test::test_error& e) {
        REQUIRE(e.depth == 2);  // `a`'s value is destroyed (ASan: no leak)
      }
    }
  });
  REQUIRE(pool.install([] { return par_fib(20); }) == seq_fib(20));  // still usable
}

namespace {
// Counts its calls in its own state: the caller sees the count only if join ran this object.
struct counting_call {
  int calls = 0;
  int operator()() { return ++calls; }
};

// Checks one join of each kind of callable: lvalues (run in place, their state visible after
// the join), small trivially copyable temporaries (which join may run as copies), a larger
// one and a non-trivial one.
void join_each_kind_of_callable() {
  counting_call left, right;
  auto [l1, r1] = weft::join(left, right);
  REQUIRE(l1 + r1 == 2);
  REQUIRE(left.calls == 1);
  REQUIRE(right.calls == 1);
  const counting_call seen_const{7};
  auto [c, u] = weft::join([&] { return seen_const.calls; }, [n = 5]() mutable { return ++n; });
  REQUIRE(c == 7);
  REQUIRE(u == 6);
  long a1 = 1, a2 = 2, a3 = 3;
  auto [big, small] = weft::join([a1, a2, a3] { return a1 + a2 + a3; }, counting_call{41});
  REQUIRE(big == 6);
  REQUIRE(small == 42);
  struct move_only_call {  // trivially copyable, yet only movable: joins by reference
    move_only_call() = default;
    move_only_call(move_only_call&&) = default;
    move_only_call(const move_only_call&) = delete;
    int operator()() const { return 3; }
  };
  auto [m, n] = weft::join(move_only_call{}, move_only_call{});
  REQUIRE(m + n == 6);
  auto [s, t] = weft::join([str = std::string(64, 's')] { return str.size(); },
                           [str = std::string("t")]() mutable { return str += "!"; });
  REQUIRE(s == 64);
  REQUIRE(t == "t!");
}
}  // namespace

TEST_CASE("join runs lvalue callables in place and any callable at every kind of join",
          "[join][interface]") {
  join_each_kind_of_callable();  // from outside every pool
  weft::thread_pool pool({.num_threads = 1});
  pool.install([] {
    join_each_kind_of_callable();                       // recorded (below the private bound)
    run_at_depth(24, [] { join_each_kind_of_callable(); });  // unrecorded
  });
}

TEST_CASE("join borrows from the caller's frame", "[join][interface]") {
  std::string left = "left", right = "right";
  auto [a, b] = weft::join([&]() -> std::string& { return left; },
                           [&]() -> const std::string& { return right; });
  a += "!";
  REQUIRE(left == "left!");
  REQUIRE(&b == &right);
}

TEST_CASE("offer_work lets an idle thread take a pending b while a runs", "[join][requirement]") {
  // `a` cannot finish until `b` ran, and `b` can only run on the other thread: the test ends
  // only if offer_work publishes `b` to it (a hang is the failure, caught by the ctest timeout).
  weft::thread_pool pool({.num_threads = 2});
  for (int round = 0; round < 200; ++round) {
    std::atomic<bool> b_ran{false};
    pool.install([&] {
      weft::join(
          [&] {
            while (!b_ran.load(std::memory_order_acquire)) {
              weft::offer_work();
              std::this_thread::yield();
            }
          },
          [&] { b_ran.store(true, std::memory_order_release); });
    });
    CHECK(b_ran.load());
  }
  weft::offer_work();  // outside a pool: a no-op
}

TEST_CASE("joins that run through the open gate still feed a thread that turns idle",
          "[join][requirement]") {
  // The other thread runs `hold` (the oldest fork, the first one published) until the main
  // side has gone 12 joins deeper than the private bound with nobody idle: there the gate is
  // open and every join is two plain calls. Then `hold` returns and the other thread turns
  // idle. The loop at the bottom ends only when one of its `b`s runs on the other thread,
  // which needs that thread's hunger to close the gate (G2) so that a join records and
  // publishes again. Without the close, the loop spins forever: a hang (ctest timeout) is
  // the failure.
  weft::thread_pool pool({.num_threads = 2});
  for (int round = 0; round < 50; ++round) {
    std::atomic<bool> bottom_reached{false}, stolen{false};
    pool.install([&] {
      const auto me = weft::thread_index();
      const auto descend = [&](const auto& self, int depth) -> void {
        if (depth > 0) {
          weft::join([&] { self(self, depth - 1); }, [] {});
          return;
        }
        bottom_reached.store(true, std::memory_order_release);
        while (!stolen.load(std::memory_order_acquire))
          weft::join([] {}, [&] {
            if (weft::thread_index() != me) stolen.store(true, std::memory_order_release);
          });
      };
      weft_test::while_other_worker_holds(
          [&] { descend(descend, 12); },
          [&] { return bottom_reached.load(std::memory_order_acquire); });
    });
    CHECK(stolen.load());
  }
}

TEST_CASE("join of three or more callables returns a tuple in argument order", "[join][nary]") {
  auto [a, b, c] = weft::join([] { return 1; }, [] { return std::string("two"); }, [] { return 3.0; });
  REQUIRE(a == 1);
  REQUIRE(b == "two");
  REQUIRE(c == 3.0);
  std::atomic<int> ran{0};
  auto [u, v, w, x, y] = weft::join([&] { ran += 1; }, [&] { return ran.fetch_add(10) * 0 + 7; },
                                    [&] { ran += 100; }, [&] { ran += 1000; return 'x'; },
                                    [&] { ran += 10000; });
  REQUIRE(ran.load() == 11111);
  REQUIRE(v == 7);
  REQUIRE(x == 'x');
  REQUIRE(u == weft::unit{});
  static_assert(std::is_same_v<decltype(y), weft::unit>);
  // All void: join returns void.
  static_assert(std::is_void_v<decltype(weft::join([] {}, [] {}, [] {}))>);
  // Move-only results.
  auto [p, q, r] = weft::join([] { return std::make_unique<int>(1); },
                              [] { return std::make_unique<int>(2); },
                              [] { return std::make_unique<int>(3); });
  REQUIRE(*p + *q + *r == 6);
}

TEST_CASE("n-ary join: every callable finishes, the leftmost exception wins", "[join][nary][exceptions]") {
  for (int round = 0; round < 50; ++round) {
    std::atomic<int> finished{0};
    try {
      weft::join([&] { finished += 1; },
                 [&] { finished += 1; throw weft_test::test_error{2}; },
                 [&] { finished += 1; },
                 [&] { finished += 1; throw weft_test::test_error{4}; });
      FAIL("no exception");
    } catch (const weft_test::test_error& e) {
      REQUIRE(e.depth == 2);
    }
    REQUIRE(finished.load() == 4);
  }
  weft::thread_pool pool({.num_threads = 2});
  const long total = pool.install([] {
    long sum = 0;
    for (int i = 0; i < 1000; ++i) {
      auto [a, b, c] = weft::join([i] { return i; }, [i] { return 2L * i; }, [i] { return 3L * i; });
      sum += a + b + c;
    }
    return sum;
  });
  REQUIRE(total == 6L * 999 * 1000 / 2);
}
