// SPDX-License-Identifier: MIT
// The splitting engine seen from inside (plumbing/bridge.hpp, plumbing/blocks.hpp): which
// calls reach the engine compiled into libweft, how a leaf refits its blocks and offers its
// rest, and the probe's learned cost records (per fold depth, sampled, the larger budget of
// a fork that would wake a thread). White-box: these name weft::detail.
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "test_support.hpp"

// for_each, to_vector and the reductions into a type whose engine libweft holds (the
// integers, float, double) run it (detail::bridge_compiled): the call site compiles its leaf loop, not the
// engine. The choice is made at compile time from the consumer's type; check it, and that
// routed and unrouted pipelines give the plain loop's answer under every grain option, at 1
// and 2 threads, and let a user's exception through.
TEST_CASE("pipeline reductions, for_each and to_vector run the engine compiled into libweft",
          "[iter][engine]") {
  using namespace weft::detail;
  using keep_fn = bool (*)(long);
  static_assert(compiled_fold<arithmetic_consumer<double, plus_op>>);
  static_assert(compiled_fold<arithmetic_consumer<long, times_op>>);
  static_assert(compiled_fold<count_consumer>);
  static_assert(compiled_fold<wrapping_consumer<count_consumer, keep_fn, filter_folder>>);
  static_assert(!compiled_fold<arithmetic_consumer<short, plus_op>>);  // no engine for it
  static_assert(compiled_fold<collect_indexed_consumer<double>>);       // writes out[i]
  static_assert(!compiled_fold<collect_pieces_consumer<double>>);       // pieces: no engine
  using any_fn = any_match_consumer<any_keeps_flag, keep_fn>;
  static_assert(!compiled_fold<any_fn>);  // stops early
  static_assert(!compiled_fold<wrapping_consumer<any_fn, keep_fn, filter_folder>>);
  using touch_fn = void (*)(long&);
  static_assert(compiled_fold<for_each_consumer<touch_fn>>);
  static_assert(compiled_fold<wrapping_consumer<for_each_consumer<touch_fn>, keep_fn, filter_folder>>);

  const auto threads = GENERATE(1, 2);
  const auto n = GENERATE(std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{100'003});
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  std::vector<long> v(n);
  std::iota(v.begin(), v.end(), -7L);
  long want_sum = 0, want_even = 0;
  short want_short = 0;
  for (long x : v) {
    want_sum += 3 * x;
    want_even += x % 2 == 0;
    want_short = static_cast<short>(want_short + static_cast<short>(x % 5));
  }
  std::vector<long> twice_plus_one(n);
  std::vector<int> even_once(n);
  for (std::size_t i = 0; i < n; ++i) {
    twice_plus_one[i] = 2 * v[i] + 1;
    even_once[i] = v[i] % 2 == 0 ? 1 : 0;
  }
  const auto triple = [](long x) { return 3 * x; };
  const auto even = [](long x) { return x % 2 == 0; };
  for (int option = 0; option < 4; ++option) {
    CAPTURE(threads, n, option);
    const auto with = [option](auto it) {
      if (option == 1) return std::move(it).with_max_len(1);
      if (option == 2) return std::move(it).with_min_len(5000);
      if (option == 3) return std::move(it).deterministic();
      return it;
    };
    pool.install([&] {
      CHECK(with(weft::iter(v)).map(triple).sum() == want_sum);
      CHECK(with(weft::iter(v)).filter(even).count() == static_cast<std::size_t>(want_even));
      CHECK(with(weft::iter(v)).reduce(0L, [](long a, long b) { return a + b; }) * 3 == want_sum);
      CHECK(with(weft::iter(v)).map([](long x) { return static_cast<short>(x % 5); }).sum() ==
            want_short);  // short: the engine instantiated here
      std::vector<long> w = v;
      with(weft::iter(w)).for_each([](long& x) { x = 2 * x + 1; });  // each item exactly once
      CHECK(w == twice_plus_one);
      std::vector<std::atomic<int>> seen(n);
      with(weft::iter(v)).enumerate().filter([](auto p) { return p.second % 2 == 0; }).for_each(
          [&seen](auto p) { seen[p.first].fetch_add(1, std::memory_order_relaxed); });
      std::vector<int> seen_counts(n);
      for (std::size_t i = 0; i < n; ++i) seen_counts[i] = seen[i].load();
      CHECK(seen_counts == even_once);
      CHECK(with(weft::iter(v)).map([](long x) { return 2 * x + 1; }).to_vector() ==
            twice_plus_one);
    });
  }
  if (n > 0) {
    const std::size_t bad = n / 2;
    CHECK_THROWS_AS(pool.install([&] {
                      return weft::iter(v).enumerate().map([bad](auto p) {
                        if (p.first == bad) throw std::runtime_error("item");
                        return p.second;
                      }).sum();
                    }),
                    std::runtime_error);
    CHECK(pool.install([&] { return weft::iter(v).map(triple).sum(); }) == want_sum);
  }
}

TEST_CASE("leaf blocks refit to their measured cost", "[iter][plumbing]") {
  // White-box: the rule a leaf applies to each timed block (plumbing/split_tree.hpp).
  using weft::detail::refit_block;
  using weft::detail::stop_check_ns;
  const auto ticks_for_ns = [](double ns) {
    return static_cast<std::uint64_t>(ns * weft::plumbing::cost_ticks_per_ns);
  };
  std::size_t block = 32;
  // On target (within 2x either way): timing stops, the block stays.
  CHECK_FALSE(refit_block(block, 32, ticks_for_ns(stop_check_ns)));
  CHECK_FALSE(refit_block(block, 32, ticks_for_ns(1.9 * stop_check_ns)));
  CHECK_FALSE(refit_block(block, 32, ticks_for_ns(0.6 * stop_check_ns)));
  CHECK(block == 32);
  // 32 items that cost 70 us each (the late items of `unbalanced`): one item a block.
  CHECK(refit_block(block, 32, ticks_for_ns(32 * 70000.0)));
  CHECK(block == 1);
  // Nothing left to shrink: timing stops.
  CHECK_FALSE(refit_block(block, 1, ticks_for_ns(70000.0)));
  CHECK(block == 1);
  // A block stretched by a preemption, then a short one: back up, whole granules.
  block = 1024;
  CHECK(refit_block(block, 1024, ticks_for_ns(50 * stop_check_ns)));
  CHECK(block == 16);
  CHECK(block % weft::plumbing::block_granule == 0);
  CHECK(refit_block(block, 16, ticks_for_ns(0.01 * stop_check_ns)));
  CHECK(block == 1600);
  // Far cheaper than the probe said (its first item carried a fixed cost, such as map_init's
  // init): the block grows past the probe's size, up to the longest block there is.
  block = 8;
  CHECK(refit_block(block, 8, ticks_for_ns(0.008 * stop_check_ns)));
  CHECK(block == 1000);
  CHECK(refit_block(block, 1000, ticks_for_ns(0.05 * stop_check_ns)));
  CHECK(block == weft::detail::max_stop_check_items);
  // Already the longest: nothing to change.
  CHECK_FALSE(refit_block(block, block, ticks_for_ns(0.1 * stop_check_ns)));
  CHECK(block == weft::detail::max_stop_check_items);
  // Three items a block: below one granule, single items.
  block = 1024;
  CHECK(refit_block(block, 1024, ticks_for_ns(1024 * stop_check_ns / 3)));
  CHECK(block == 3);
}

TEST_CASE("a leaf over long items offers its rest before each item, with no thread idle",
          "[iter][plumbing]") {
  // White-box (plumbing/split_tree.hpp, fold_rest): items of at least eager_share_item_ns each
  // make a leaf publish the far half of its rest before each item, not only when a thread
  // asks. The other thread is kept busy in `hold` for the whole loop, so nobody is ever
  // hungry: lazily published work would leave this worker's public region empty throughout.
  // Each item spins on the engine's own clock, so the engine measures at least the cost
  // asked for on any machine.
  const auto ticks = static_cast<std::uint64_t>(2 * weft::detail::eager_share_item_ns *
                                                weft::plumbing::cost_ticks_per_ns);
  weft::thread_pool pool({.num_threads = 2});
  std::atomic<bool> loop_done{false};
  std::atomic<int> published_seen{0}, items{0};
  pool.install([&] {
    weft_test::while_other_worker_holds(
        [&] {
          weft::range(0, 64).for_each([&](int) {
            const std::uint64_t start = weft::plumbing::cost_clock_now();
            while (weft::plumbing::cost_clock_now() - start < ticks) {
            }
            const weft::detail::worker* w = weft::detail::current_worker;
            if (!w->deque.public_is_empty()) published_seen.fetch_add(1);
            items.fetch_add(1);
          });
          loop_done.store(true, std::memory_order_release);
        },
        [&] { return loop_done.load(std::memory_order_acquire); });
  });
  CHECK(items.load() == 64);
  CHECK(published_seen.load() > 0);
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

// The probe's budget follows what a fork would cost: the larger one while a fork would have
// to wake a sleeping thread (every idle thread of the pool sleeps, or, from outside, the
// caller seat is taken), the smaller one otherwise. Seen through the small-case test with a
// planted record: 10 items fit the smaller budget, 1000 the larger.
TEST_CASE("the probe: a fork that would wake a sleeping thread gets the larger budget",
          "[iter][plumbing]") {
  using weft::detail::fork_would_wake;
  weft::detail::call_site_record site;
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

// A nested fold that goes parallel runs its rest as one leaf that cuts it when a thread is
// hungry (docs/plumbing.md#nested-calls-split-on-demand). With one outer item nothing above
// the nested call splits, so its items reach the other threads only through those cuts: each
// item the calling thread runs waits (bounded, without a clock) until another thread ran one.
TEST_CASE("a nested fold's items reach idle threads when nothing above it split",
          "[iter][plumbing]") {
  for (std::size_t threads : {2, 3}) {
    weft::thread_pool pool({.num_threads = threads});
    const std::vector<int> one{1};
    const std::vector<int> items(256, 1);
    std::atomic<int> elsewhere{0};
    const long total = pool.install([&] {
      const std::thread::id caller = std::this_thread::get_id();
      return weft::iter(one).map([&](int) {
        return weft::iter(items).map([&](int y) {
          if (std::this_thread::get_id() != caller) {
            elsewhere.fetch_add(1, std::memory_order_relaxed);
          } else {
            weft_test::eventually([&] { return elsewhere.load(std::memory_order_relaxed) > 0; },
                                  100'000);
          }
          return long{y};
        }).sum();
      }).sum();
    });
    CHECK(total == 256);
    CHECK(elsewhere.load() > 0);
  }
}

// A call site learns its items' cost per fold depth: what the calls at one depth learned
// decides nothing for the calls at another. Planted records: cheap items at depth 3, none
// learned at depth 0.
TEST_CASE("the probe: each fold depth has its own learned record", "[iter][plumbing]") {
  weft::detail::call_site_record site;
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
  auto& site = weft::detail::site_record<sum_of_indices_block>;
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
