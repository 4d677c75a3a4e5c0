// SPDX-License-Identifier: MIT
// weft::iter's state per leaf (map_init, for_each_init) through the public API, and what it
// shows of the engine's pieces: with_min_len's bound. The probe's own tests are white-box
// (tests/unit/plumbing/engine_test.cpp).
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
