// SPDX-License-Identifier: MIT
// weft::iter's state per leaf (map_init, for_each_init) through the public API, and what it
// shows of the engine's pieces: with_min_len's bound, the probe's cost estimate.
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "test_support.hpp"

// map_init / for_each_init: a state per leaf. What can go wrong: a state shared by two
// threads, or by two leaves one thread interleaves (f calls a nested pipeline, and the
// waiting thread runs another leaf of the outer one); a state made per item or per block
// instead of per leaf; one made and never destroyed (or destroyed twice) when a callable
// throws.
namespace {
struct leaf_state {
  static inline std::atomic<long> made{0};
  static inline std::atomic<long> destroyed{0};
  static inline std::atomic<long> items_seen{0};
  static inline std::atomic<int> violations{0};
  std::atomic<int> busy{0};  // not movable: the state is built in place
  std::size_t items = 0;
  leaf_state() { made.fetch_add(1, std::memory_order_relaxed); }
  leaf_state(const leaf_state&) = delete;
  ~leaf_state() {
    items_seen.fetch_add(static_cast<long>(items), std::memory_order_relaxed);
    destroyed.fetch_add(1, std::memory_order_relaxed);
  }
  // Marks the state in use for the duration of `body`; a second user meanwhile is a violation.
  template <class Body>
  auto use(Body body) {
    if (busy.exchange(1, std::memory_order_acquire) != 0) violations.fetch_add(1);
    auto r = body();
    busy.store(0, std::memory_order_release);
    ++items;
    return r;
  }
  static void reset() { made = 0; destroyed = 0; items_seen = 0; violations = 0; }
};
}  // namespace

TEST_CASE("map_init and for_each_init: one state per leaf, used by one thread at a time",
          "[iter][interface]") {
  const auto make = [] { return leaf_state{}; };
  SECTION("one thread: one state for the whole input, none for an empty one") {
    weft::thread_pool pool({.num_threads = 1});
    pool.install([&] {
      for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{100003}}) {
        leaf_state::reset();
        const auto out = weft::range(std::size_t{0}, n)
                             .map_init(make, [](leaf_state& s, std::size_t) { return s.use([&] { return s.items; }); })
                             .to_vector();
        std::vector<std::size_t> want(n);
        std::iota(want.begin(), want.end(), std::size_t{0});
        CHECK((out == want));  // the state carried its count from each item to the next
        CHECK(leaf_state::made.load() == (n == 0 ? 0 : 1));
        CHECK(leaf_state::destroyed.load() == leaf_state::made.load());
      }
    });
  }
  SECTION("two threads, every grain mode: each state sees a run of items in order") {
    weft::thread_pool pool({.num_threads = 2});
    pool.install([&] {
      for (int mode = 0; mode < 4; ++mode) {
        leaf_state::reset();
        const std::size_t n = 200003;
        auto base = weft::range(std::size_t{0}, n);
        auto pipe = mode == 1 ? std::move(base).with_max_len(1000)
                    : mode == 2 ? std::move(base).with_min_len(50000)
                    : mode == 3 ? std::move(base).deterministic()
                                : std::move(base);
        // Each item becomes (its position, its rank within its state): ranks restart at 0
        // where a new state starts and otherwise count up by one.
        const auto out = std::move(pipe)
                             .map_init(make, [](leaf_state& s, std::size_t i) {
                               return s.use([&] { return std::pair{i, s.items}; });
                             })
                             .to_vector();
        REQUIRE(out.size() == n);
        std::size_t starts = 0, bad = 0;
        for (std::size_t i = 0; i < n; ++i) {
          if (out[i].first != i) ++bad;
          if (out[i].second == 0)
            ++starts;
          else if (i == 0 || out[i].second != out[i - 1].second + 1)
            ++bad;
        }
        INFO("mode " << mode);
        CHECK(bad == 0);
        CHECK(static_cast<long>(starts) == leaf_state::made.load());
        // How many leaves the adaptive engine makes depends on steals, hence on timing (under
        // TSan it made 542 here once); only the grain modes bound it independently of timing.
        const long made = leaf_state::made.load();
        if (mode == 1) CHECK(made >= static_cast<long>((n + 999) / 1000));  // leaves of <= 1000
        if (mode == 2) CHECK(made <= static_cast<long>(n / 50000));         // leaves of >= 50000
        if (mode == 3) {  // fixed tree: halves until a piece is <= 4096 items, so each is > 2048
          CHECK(made >= static_cast<long>((n + 4095) / 4096));
          CHECK(made <= static_cast<long>(n / 2048));
        }
        CHECK(leaf_state::destroyed.load() == leaf_state::made.load());
        CHECK(leaf_state::items_seen.load() == static_cast<long>(n));
        CHECK(leaf_state::violations.load() == 0);
      }
    });
  }
  SECTION("one thread, with_max_len: the fewest halvings that bring every piece to max_len") {
    // On one thread nothing is stolen and no leaf is cut for an idle thread, so the tree is
    // exactly the splitter's: the smallest power of two of pieces >= ceil(n / max_len), never
    // fewer than two (the budget of one thread is one cut) and none empty (1000 items with
    // max_len 1: 1000 pieces, not 1024). 64000 / 1000 asks for 64 pieces of 1000; a budget
    // started from n / max_len made 128 of 500.
    weft::thread_pool pool({.num_threads = 1});
    struct shape {
      std::size_t n, max_len;
      long pieces;
    };
    for (const shape s : {shape{64000, 1000, 64}, shape{64001, 1000, 128}, shape{100003, 1000, 128},
                          shape{1000, 1000, 2}, shape{1001, 1000, 2}, shape{2001, 1000, 4},
                          shape{1000, 1, 1000}}) {
      CAPTURE(s.n, s.max_len);
      leaf_state::reset();
      const std::size_t longest = pool.install([&] {
        return weft::range(std::size_t{0}, s.n)
            .with_max_len(s.max_len)
            .map_init(make, [](leaf_state& st, std::size_t) { return st.use([&] { return st.items + 1; }); })
            .max()
            .value_or(0);
      });
      CHECK(leaf_state::made.load() == s.pieces);
      CHECK(longest <= s.max_len);
      CHECK(leaf_state::items_seen.load() == static_cast<long>(s.n));
    }
  }
  SECTION("a nested pipeline inside f: the waiting thread's other leaves get their own state") {
    weft::thread_pool pool({.num_threads = 2});
    leaf_state::reset();
    const long total = pool.install([&] {
      return weft::range(0, 4000).with_max_len(16).map_init(make, [](leaf_state& s, int x) {
        return s.use([&] { return weft::range(0, 200).with_max_len(8).map([x](int y) { return long{x} + y - y; }).sum() / 200; });
      }).sum();
    });
    CHECK(total == 3999L * 4000 / 2);
    CHECK(leaf_state::violations.load() == 0);
    CHECK(leaf_state::destroyed.load() == leaf_state::made.load());
  }
  SECTION("for_each_init, after a filter too") {
    for (std::size_t threads : {std::size_t{1}, std::size_t{2}}) {
      weft::thread_pool pool({.num_threads = threads});
      leaf_state::reset();
      std::atomic<long> sum{0};
      pool.install([&] {
        weft::range(0L, 100003L).for_each_init(make, [&](leaf_state& s, long x) {
          s.use([&] { return sum.fetch_add(x, std::memory_order_relaxed); });
        });
      });
      CHECK(sum.load() == 100002L * 100003 / 2);
      CHECK(leaf_state::items_seen.load() == 100003);
      CHECK(leaf_state::destroyed.load() == leaf_state::made.load());
      CHECK(leaf_state::violations.load() == 0);
      leaf_state::reset();
      pool.install([&] {
        weft::range(0L, 100003L).filter([](long x) { return x % 3 == 0; }).for_each_init(make, [](leaf_state& s, long) {
          s.use([] { return 0; });
        });
      });
      CHECK(leaf_state::items_seen.load() == 33335);
      CHECK(leaf_state::destroyed.load() == leaf_state::made.load());
    }
  }
  SECTION("exceptions from init or f propagate; every state made is destroyed once") {
    weft::thread_pool pool({.num_threads = 2});
    auto rng = weft_test::seeded_rng(7);
    for (int round = 0; round < 20; ++round) {
      const long bad = static_cast<long>(rng() % 100003);
      leaf_state::reset();
      CHECK_THROWS_AS(pool.install([&] {
        return weft::range(0L, 100003L).map_init(make, [&](leaf_state& s, long x) {
          return s.use([&] {
            if (x == bad) throw weft_test::test_error{static_cast<int>(x)};
            return x;
          });
        }).sum();
      }), weft_test::test_error);
      CHECK(leaf_state::destroyed.load() == leaf_state::made.load());
      std::atomic<int> inits{0};
      const int bad_init = static_cast<int>(rng() % 3);
      CHECK_THROWS_AS(pool.install([&] {
        weft::range(0L, 100003L).with_max_len(5000).for_each_init(
            [&] {
              if (inits.fetch_add(1) == bad_init) throw std::runtime_error("init");
              return 0;
            },
            [](int& s, long) { ++s; });
      }), std::runtime_error);
    }
    CHECK(pool.install([] { return weft::range(0L, 1000L).map_init([] { return 2L; }, [](long& k, long x) { return k * x; }).sum(); }) ==
          999L * 1000);
  }
}

// The probe times a first chunk of items to learn what an item costs. map_init's init runs
// on a leaf's first item, and timed with it, it made one item look like its whole cost: a
// call over a handful of cheap items then went parallel on every call, each leaf making a
// state of its own. The probe makes the state before its clock starts (map_init_folder's
// prepare). Here init costs 20 us (spun on the engine's clock) and 16 items cost ~nothing:
// without prepare no call makes fewer than two states (every timed probe sees the 20 us,
// and the calls between samples fork at once on the record). With it, once a timed call
// learns the items' true cost, the calls between samples take the small case (no clock)
// and make one state. A timed call can still be preempted or run cold (the first call's
// page faults, TSan's shadow memory) and store a cost far too high, which only the next
// timed call (one in 16) corrects; so the calls go on, up to 64 sampling periods, until
// one made a single state.
TEST_CASE("map_init: init's cost is not counted as the items' cost", "[iter][plumbing]") {
  const auto spin_ticks = static_cast<std::uint64_t>(20000 * weft::plumbing::cost_ticks_per_ns);
  std::atomic<int> made{0};
  const auto init = [&] {
    const std::uint64_t start = weft::plumbing::cost_clock_now();
    while (weft::plumbing::cost_clock_now() - start < spin_ticks) {
    }
    made.fetch_add(1, std::memory_order_relaxed);
    return 0;
  };
  weft::thread_pool pool({.num_threads = 2});
  int fewest = 1 << 20;
  pool.install([&] {
    const int calls = 64 * static_cast<int>(weft::detail::probe_sample_period);
    for (int call = 0; call < calls && fewest != 1; ++call) {
      made = 0;
      const long s = weft::range(0L, 16L).map_init(init, [](int&, long x) { return x; }).sum();
      REQUIRE(s == 120);
      if (call > 0) fewest = std::min(fewest, made.load());  // the first call learns
    }
  });
  CHECK(fewest == 1);
  // An init that throws in the probe, before any item: the exception reaches the caller.
  CHECK_THROWS_AS(pool.install([] {
    return weft::range(0L, 100000L).map_init([]() -> int { throw std::runtime_error("init"); },
                                             [](int&, long x) { return x; }).sum();
  }), std::runtime_error);
}

// with_min_len(m) promises no piece shorter than m items. The probe folds a first chunk
// inline before the rest is split, and that chunk is a piece too (it was once shorter:
// 119 items of 200,003 under with_min_len(50000)). map_init shows the pieces: a state per
// piece, whose rank restarts at 0 where a piece starts. The probe's chunk is about 1.5 us
// of work inside a pool, far under every m below, so a short first piece would show.
TEST_CASE("with_min_len: no piece is shorter, the probe's first one included",
          "[iter][requirement]") {
  weft::thread_pool pool({.num_threads = 2});
  for (const std::size_t m : {std::size_t{3}, std::size_t{5000}, std::size_t{50000}}) {
    for (const std::size_t n : {m, 2 * m - 1, 2 * m, 3 * m + 1, std::size_t{200003}}) {
      CAPTURE(m, n);
      for (int round = 0; round < 4; ++round) {
        const auto ranks = pool.install([&] {
          return weft::range(std::size_t{0}, n).with_min_len(m).map_init(
              [] { return std::size_t{0}; }, [](std::size_t& rank, std::size_t) { return rank++; })
              .to_vector();
        });
        REQUIRE(ranks.size() == n);
        std::size_t shortest = n, piece = 0;
        for (std::size_t i = 0; i <= n; ++i) {
          if (i == n || (i > 0 && ranks[i] == 0)) {
            shortest = std::min(shortest, piece);
            piece = 0;
          }
          if (i < n) ++piece;
        }
        CHECK(shortest >= std::min(m, n));
      }
      // A search stops at its match whatever the grain: the first match is still found.
      const std::size_t at = n - 1 - n / 7;
      CHECK(pool.install([&] {
        return weft::range(std::size_t{0}, n).with_min_len(m).position_first([at](std::size_t i) { return i >= at; });
      }) == std::optional<std::size_t>{at});
    }
  }
}

// The probe's budget follows what a fork would cost: the larger one while a fork would have
// to wake a sleeping thread (every idle thread of the pool sleeps, or, from outside, the
// caller seat is taken), the smaller one otherwise. Seen through the small-case test with a
// planted record: 10 items fit the smaller budget, 1000 the larger.
TEST_CASE("the probe: a fork that would wake a sleeping thread gets the larger budget",
          "[iter][plumbing]") {
  using weft::detail::fork_would_wake;
  weft::detail::call_site_cost site;
  weft::detail::learned_cost& learned = site.at(0);
  learned.ticks_per_item.store(1.0f);
  learned.fits_cheap_fork.store(10);
  learned.fits_waking_fork.store(1000);
  const auto small_case = [&](std::size_t n) {
    weft::detail::probe_ticket = 0;  // not the sampled call
    return weft::detail::take_small_case(site, n);
  };

  SECTION("a one-thread pool has no thread to wake") {
    weft::thread_pool one({.num_threads = 1});
    one.install([&] {
      CHECK_FALSE(fork_would_wake());
      CHECK(small_case(10));
      CHECK_FALSE(small_case(100));
    });
  }
  SECTION("inside a pool: every other thread asleep, then every thread busy") {
    weft::thread_pool pool({.num_threads = 2});
    pool.install([&] {
      REQUIRE(weft_test::eventually([&] { return pool.stats().sleeping == 1; }));
      CHECK(fork_would_wake());
      CHECK(small_case(100));
      CHECK_FALSE(small_case(1001));
      // The other thread wakes for b and runs it while a runs here: nobody is idle, a fork
      // would stay private until one is.
      std::atomic<bool> b_started{false}, release{false};
      weft::join(
          [&] {
            REQUIRE(weft_test::eventually([&] { return b_started.load(); }));
            CHECK_FALSE(fork_would_wake());
            CHECK_FALSE(small_case(100));
            CHECK(small_case(10));
            release = true;
          },
          [&] {
            b_started = true;
            weft_test::eventually([&] { return release.load(); });  // no Catch2 off main
          });
    });
  }
  SECTION("outside every pool: the global pool's sleepers, or its caller seat taken") {
    using weft::detail::rt::global_registry;
    static_cast<void>(global_registry());  // the pool exists (num_threads() does not create it)
    const std::size_t threads = weft::num_threads();
    if (threads > 1) {
      REQUIRE(weft_test::eventually(
          [&] { return weft::detail::rt::stats(global_registry()).sleeping == threads - 1; }));
      CHECK(fork_would_wake());
      CHECK(small_case(100));
    } else {
      CHECK_FALSE(fork_would_wake());
      CHECK_FALSE(small_case(100));
    }
    // Another thread holds the seat: a fork from here would be injected and wait.
    std::atomic<bool> entered{false}, in_seat{false}, release{false};
    std::thread holder([&] {
      weft::join(
          [&] {
            in_seat = weft::thread_index() == std::optional<std::size_t>{0};
            entered = true;
            weft_test::eventually([&] { return release.load(); });  // no Catch2 off main
          },
          [] {});
    });
    const bool holder_entered = weft_test::eventually([&] { return entered.load(); });
    const bool wakes = fork_would_wake();
    const bool small = small_case(100);
    release = true;
    holder.join();
    REQUIRE(holder_entered);
    REQUIRE(in_seat);
    CHECK(wakes);
    CHECK(small);
  }
}

// Fold depth: the items of a bridged operation run one level below the depth it started at,
// on whichever thread runs them, through every way into the engine (the probe's chunks, the
// small case, leaves cut by the splitter or by with_max_len, the compiled engine of sums and
// of the algorithms), and the thread gets its own depth back when the operation returns.
TEST_CASE("nested operations run their items one fold depth down", "[iter][plumbing]") {
  using weft::detail::fold_depth;
  for (std::size_t threads : {1, 2, 3}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      REQUIRE(fold_depth == 0);
      std::vector<int> outer(64, 1), inner(5000, 1), tiny(3, 1);
      std::atomic<long> wrong{0};
      const auto at = [&](unsigned depth) {
        if (fold_depth != depth) wrong.fetch_add(1, std::memory_order_relaxed);
      };
      for (int round = 0; round < 20; ++round) {
        const long total =
            weft::iter(outer).with_max_len(1).map([&](int x) {
              at(1);
              long s = weft::iter(inner).map([&](int y) { at(2); return long{y}; }).sum();
              s += weft::iter(tiny).map([&](int y) { at(2); return long{y}; }).sum();
              weft::for_each(weft::par, inner.begin(), inner.end(), [&](int) { at(2); });
              const std::vector<int> copied =
                  weft::iter(inner).map([&](int y) { at(2); return y; }).to_vector();
              at(1);
              return s + x + static_cast<long>(copied.size());
            }).sum();
        CHECK(total == 64 * (5000 + 3 + 1 + 5000));
        CHECK(fold_depth == 0);
      }
      CHECK(wrong.load() == 0);
    });
  }
}

// A call site learns its items' cost per fold depth: what the calls at one depth learned
// decides nothing for the calls at another. Planted records: cheap items at depth 3, none
// learned at depth 0.
TEST_CASE("the probe: each fold depth has its own learned record", "[iter][plumbing]") {
  weft::detail::call_site_cost site;
  weft::detail::learned_cost& deep = site.at(3);
  deep.ticks_per_item.store(1.0f);
  deep.fits_cheap_fork.store(1000);
  deep.fits_waking_fork.store(1000);
  const auto small_case = [&](std::size_t n) {
    weft::detail::probe_ticket = 0;  // not the sampled call
    return weft::detail::take_small_case(site, n);
  };
  CHECK_FALSE(small_case(12));
  {
    const weft::detail::nested_fold at_depth_3(2);
    CHECK(small_case(12));
    CHECK_FALSE(small_case(1001));
  }
  CHECK_FALSE(small_case(12));
  // A nested call is sampled once in nested_probe_sample_period calls, not probe_sample_period.
  {
    const weft::detail::nested_fold at_depth_3(2);
    weft::detail::probe_ticket = weft::detail::probe_sample_period - 1;
    CHECK(weft::detail::take_small_case(site, 12));
    weft::detail::probe_ticket = weft::detail::nested_probe_sample_period - 1;
    CHECK_FALSE(weft::detail::take_small_case(site, 12));
  }
  // Depths past the last record share it.
  CHECK(&site.at(weft::detail::learned_depths + 5) == &site.at(weft::detail::learned_depths - 1));
}

namespace {

// A recursion through one pipeline call site: at every level two items, each the next level;
// at the top, if `meet`, each item first waits until the other has started.
long recurse(int level, std::atomic<int>* meet) {
  const int two[] = {0, 1};
  return weft::iter(two).map([&](int i) -> long {
    if (meet != nullptr) {
      meet->fetch_add(1);
      // Both items start only if the top call forks them to two threads (the fork of the
      // other item may be pending here: offered while this one waits).
      const auto both_started = [&] {
        weft::offer_work();
        return meet->load() >= 2;
      };
      if (!weft_test::eventually(both_started, 2'000'000)) return -1;
    }
    return level == 0 ? i : recurse(level - 1, nullptr);
  }).sum();
}

}  // namespace

// The shape of a recursive search written with pipelines: thousands of calls at the bottom,
// each over two cheap items, teach the call site that its items are cheap; the top call's two
// items hold the whole tree. The top call still forks (its depth's record is its own), so
// both of its items run at once on a pool of two threads. (With one record for every depth,
// the last thing learned, the cheap calls, would make the top call fold both items inline.)
TEST_CASE("a recursion through pipelines forks its top call", "[iter][plumbing]") {
  weft::thread_pool pool({.num_threads = 2});
  pool.install([&] {
    constexpr int levels = 11;
    for (int warm = 0; warm < 4; ++warm) CHECK(recurse(levels, nullptr) == (1L << levels));
    // The bottom's calls, many more of them, and last: one level down.
    std::atomic<long> leaves{0};
    weft::range(0, 4000).for_each([&](int) { leaves += recurse(0, nullptr); });
    CHECK(leaves.load() == 4000);
    std::atomic<int> meet{0};
    weft::detail::probe_ticket = 0;  // not the sampled call, which probes its first item alone
    CHECK(recurse(levels, &meet) == (1L << levels));
  });
}

// When the record says the input holds at least twice the budget, the bridge forks at once
// instead of probing: no probe, so a planted record far from the truth is not corrected,
// except by the sampled call (one in 16), which still probes. The bridge runs here, in this
// file, on a block consumer (the compiled engine would use libweft's own probe counter).
namespace {
struct sum_of_indices_block {
  long operator()(std::size_t lo, std::size_t hi) const {
    long s = 0;
    for (std::size_t i = lo; i < hi; ++i) s += static_cast<long>(i);
    return s;
  }
};
}  // namespace

TEST_CASE("the probe: an input far past the budget forks at once, the sampled call probes",
          "[iter][plumbing]") {
  namespace algo = weft::detail::algo;
  constexpr std::size_t n = 100'000;
  constexpr long want = static_cast<long>(n) * (static_cast<long>(n) - 1) / 2;
  const sum_of_indices_block block;
  const auto add = [](long a, long b) { return a + b; };
  const algo::reduce_blocks_consumer<long>::block_fn block_ref(block);
  const algo::reduce_blocks_consumer<long>::combine_fn combine_ref(add);
  auto& site = algo::block_cost<sum_of_indices_block>;
  auto& record = site.at(0);  // the calls below run at fold depth 0
  const algo::reduce_blocks_consumer<long> c{{&site}, &block_ref, &combine_ref};
  // 10 items fit either budget: a cost per item ~10,000 times what adding an index costs.
  constexpr float planted = 1e5f;
  record.ticks_per_item.store(planted);
  record.fits_cheap_fork.store(10);
  record.fits_waking_fork.store(10);
  const auto run = [&](unsigned ticket) {
    weft::detail::probe_ticket = ticket;
    return weft::plumbing::bridge(algo::index_producer{0, n}, c);
  };
  weft::thread_pool pool({.num_threads = 2});
  for (int i = 0; i < 3; ++i) {
    REQUIRE(pool.install([&] { return run(0); }) == std::optional<long>{want});
    REQUIRE(record.ticks_per_item.load() == planted);
  }
  const unsigned sampled = weft::detail::probe_sample_period - 1;  // the next call is sampled
  REQUIRE(pool.install([&] { return run(sampled); }) == std::optional<long>{want});
  // The sampled call measured the cost again. Not compared with a bound: the measured chunk
  // is a few items, and one preemption inside it (a loaded CI machine) made it 5,371 ticks
  // an item where it is ~1.
  REQUIRE(record.ticks_per_item.load() != planted);
  // On one thread the rest is folded where the probe would have been: no probe either.
  record.ticks_per_item.store(planted);
  record.fits_cheap_fork.store(10);
  record.fits_waking_fork.store(10);
  weft::thread_pool one({.num_threads = 1});
  REQUIRE(one.install([&] { return run(0); }) == std::optional<long>{want});
  REQUIRE(record.ticks_per_item.load() == planted);
}
