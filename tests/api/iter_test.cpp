// SPDX-License-Identifier: MIT
// weft::iter and weft::range through the public API: sources, borrowing, move-only items,
// exceptions, short-circuiting, deterministic reductions, nesting.
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <forward_list>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <range/v3/view/iota.hpp>
#include <range/v3/view/reverse.hpp>
#include <range/v3/view/transform.hpp>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "test_support.hpp"

TEST_CASE("sources: containers, arrays, spans, strings, std views and range-v3 views",
          "[iter][interface]") {
  std::vector<int> v(1000);
  std::iota(v.begin(), v.end(), 1);
  const long want = 1000L * 1001 / 2;
  CHECK(weft::iter(v).sum<long>() == want);

  std::array<int, 5> a{1, 2, 3, 4, 5};
  CHECK(weft::iter(a).sum() == 15);
  int c_array[4] = {1, 2, 3, 4};
  CHECK(weft::iter(c_array).sum() == 10);
  CHECK(weft::iter(std::span<const int>(v)).sum<long>() == want);
  const std::string s = "weft parallel";
  CHECK(weft::iter(s).filter([](char ch) { return ch == 'l'; }).count() == 3);
  std::deque<int> d(v.begin(), v.end());
  CHECK(weft::iter(d).sum<long>() == want);

  CHECK(weft::iter(std::views::iota(1, 1001)).sum<long>() == want);
  CHECK(weft::iter(v | std::views::transform([](int x) { return 2 * x; })).sum<long>() == 2 * want);
  CHECK(weft::iter(v | std::views::take(10)).sum() == 55);
  CHECK(weft::iter(v | std::views::drop(990)).sum() == 9955);
  CHECK(weft::iter(v | std::views::reverse).find_first([](int x) { return x < 500; }) == 499);

  CHECK(weft::iter(ranges::views::iota(1, 1001)).sum<long>() == want);
  CHECK(weft::iter(v | ranges::views::transform([](int x) { return x % 10; })).max() == 9);
  CHECK(weft::iter(v | ranges::views::reverse).position_first([](int x) { return x == 1000; }) == 0);
}

TEST_CASE("weft::range over integer types", "[iter][interface]") {
  CHECK(weft::range(0, 10).sum() == 45);
  CHECK(weft::range(10, 0).count() == 0);
  CHECK(weft::range(-5, 5).sum() == -5);
  CHECK(weft::range(std::int8_t{-100}, std::int8_t{100}).count() == 200);
  CHECK(weft::range(std::uint64_t{0}, std::uint64_t{1} << 20).sum() == (std::uint64_t{1} << 19) * ((std::uint64_t{1} << 20) - 1));
  CHECK(weft::range('a', 'f').to_vector() == std::vector<char>{'a', 'b', 'c', 'd', 'e'});
  static_assert(std::is_same_v<decltype(weft::range(0, std::size_t{3}))::item_type, std::size_t>);
  CHECK(weft::range(0, 1000).size() == 1000);
}

// A leaf whose signed items are all >= 0 runs a loop in which the compiler is told so
// (plumbing::refines_nonnegative); `x % 3` and `x * x % 7` then compile to unsigned
// arithmetic, which gives wrong answers for negative x. Ranges that straddle zero, lie
// below it, or sit at the ends of the type, cut at every size, must match a plain loop.
TEST_CASE("signed ranges on both sides of zero match a plain loop", "[iter][interface]") {
  const auto keep = [](std::int64_t x) { return x % 3 == 0; };
  const auto value = [](std::int64_t x) {
    const std::int64_t r = x % 1000;  // no overflow at the ends of the type
    return r * r % 7 + x % 5;
  };
  const auto expect = [&](std::int64_t a, std::int64_t b, std::int64_t step) {
    std::int64_t sum = 0, count = 0;
    for (std::int64_t x = a, k = 0; x < b; ++x, ++k)
      if (k % step == 0 && keep(x)) sum += value(x), ++count;
    return std::pair{sum, count};
  };
  constexpr std::int64_t lo = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t hi = std::numeric_limits<std::int64_t>::max();
  const std::pair<std::int64_t, std::int64_t> ranges[] = {
      {-100003, 100003}, {-5000, 0}, {-1, 1}, {0, 20011}, {lo, lo + 3001}, {hi - 3001, hi}};
  for (const auto& [a, b] : ranges) {
    for (std::size_t max_len : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1000}}) {
      auto r = weft::range(a, b);
      auto split = [&](auto p) { return max_len ? std::move(p).with_max_len(max_len) : std::move(p); };
      const auto [sum, count] = expect(a, b, 1);
      CHECK(split(r).filter(keep).map(value).sum() == sum);
      CHECK(split(r).filter(keep).count() == static_cast<std::size_t>(count));
      CHECK(split(r).map([&](std::int64_t x) { return keep(x) ? value(x) : 0; }).sum() == sum);
      CHECK(split(r).inspect([](std::int64_t) {}).filter(keep).map(value).sum() == sum);
      CHECK(split(r).step_by(3).filter(keep).map(value).sum() == expect(a, b, 3).first);
      CHECK(split(r).deterministic().filter(keep).map(value).sum() == sum);
    }
  }
  CHECK(weft::range(std::int8_t{-128}, std::int8_t{127}).filter([](std::int8_t x) { return x % 3 == 0; }).count() == 85);
}

TEST_CASE("an lvalue is borrowed: items are references, mutable unless const", "[iter][interface]") {
  std::vector<double> v(100003, 1.5);
  weft::iter(v).for_each([](double& x) { x *= 2; });
  CHECK(std::all_of(v.begin(), v.end(), [](double x) { return x == 3.0; }));
  const auto& cv = v;
  static_assert(std::is_same_v<decltype(weft::iter(cv))::item_type, const double&>);
  static_assert(std::is_same_v<decltype(weft::iter(v))::item_type, double&>);
  weft::iter(v).enumerate().for_each([](auto p) { p.second = static_cast<double>(p.first); });
  CHECK(v[77777] == 77777.0);
  // zip pairs references too: write one side from the other.
  std::vector<double> out(v.size());
  weft::iter(out).zip(v).for_each([](auto p) { p.first = p.second + 1; });
  CHECK(out[5] == 6.0);
}

TEST_CASE("an rvalue is moved into the pipeline, move-only items work", "[iter][interface]") {
  std::vector<std::unique_ptr<int>> owned;
  for (int i = 0; i < 1000; ++i) owned.push_back(std::make_unique<int>(i));
  // Compiles only because the vector is moved, never copied.
  CHECK(weft::iter(std::move(owned)).map([](const std::unique_ptr<int>& p) { return *p; }).sum() == 499500);

  auto ptrs = weft::range(0, 100003).map([](int i) { return std::make_unique<int>(i); }).to_vector();
  REQUIRE(ptrs.size() == 100003);
  CHECK(*ptrs[100002] == 100002);
  auto odd = weft::range(0, 1000)
                 .map([](int i) { return std::make_unique<int>(i); })
                 .filter([](const std::unique_ptr<int>& p) { return *p % 2 == 1; })
                 .to_vector();
  CHECK(odd.size() == 500);
  CHECK(*odd.front() == 1);
  auto first_big = weft::range(0, 1000)
                       .map([](int i) { return std::make_unique<int>(i); })
                       .find_first([](const std::unique_ptr<int>& p) { return *p > 10; });
  CHECK(**first_big == 11);
  auto smallest = weft::range(0, 1000)
                      .map([](int i) { return std::make_unique<int>(1000 - i); })
                      .min_by([](const auto& a, const auto& b) { return *a < *b; });
  CHECK(**smallest == 1);
}

TEST_CASE("exceptions propagate, the first wins, the pool stays usable", "[iter][requirement]") {
  for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
    auto rng = weft_test::seeded_rng(n);
    for (int round = 0; round < 20; ++round) {
      const std::size_t bad = rng() % n;
      auto run = [&](auto pipe) {
        CHECK_THROWS_AS(pipe.for_each([&](std::size_t i) {
          if (i == bad) throw weft_test::test_error{static_cast<int>(i)};
        }),
                        weft_test::test_error);
      };
      run(weft::range(std::size_t{0}, n));
      run(weft::range(std::size_t{0}, n).with_max_len(1));
      run(weft::range(std::size_t{0}, n).deterministic().with_min_len(16));
      CHECK_THROWS_AS(weft::range(std::size_t{0}, n)
                          .map([&](std::size_t i) {
                            if (i >= bad) throw std::runtime_error("map");
                            return i;
                          })
                          .sum(),
                      std::runtime_error);
      CHECK_THROWS_AS(weft::range(std::size_t{0}, n).with_max_len(7).reduce(std::size_t{0}, [&](std::size_t a, std::size_t b) {
        if (b == bad) throw std::runtime_error("reduce");
        return a + b;
      }),
                      std::runtime_error);
    }
  }
  // The sequential probe runs item 0 first and stops there.
  std::atomic<int> ran{0};
  CHECK_THROWS_AS(weft::range(0, 1 << 20).for_each([&](int) {
    ran.fetch_add(1);
    throw std::logic_error("first");
  }),
                  std::logic_error);
  CHECK(ran.load() == 1);
  CHECK(weft::range(0, 100003).map([](int x) { return static_cast<long>(x); }).sum() == 100003L * 100002 / 2);
}

TEST_CASE("short-circuit: searches over 2^40 items finish because they stop early",
          "[iter][requirement]") {
  // Without short-circuiting each of these would run for hours: the ctest timeout is the check.
  const std::int64_t huge = std::int64_t{1} << 40;
  CHECK(weft::range(std::int64_t{0}, huge).find_first([](std::int64_t x) { return x == 1000; }) == 1000);
  CHECK(weft::range(std::int64_t{0}, huge).position_first([](std::int64_t x) { return x >= 12345; }) == 12345);
  CHECK(weft::range(std::int64_t{0}, huge).position_any([](std::int64_t x) { return x % 1000 == 999; }).has_value());
  CHECK(weft::range(std::int64_t{0}, huge).with_max_len(1).position_any([](std::int64_t x) { return x == 42; }) == 42);
  // Through a chain: a match on the left stops the right side, and the other way round.
  const auto odd = [](std::int64_t x) { return x % 2 == 1; };
  CHECK(weft::range(std::int64_t{0}, huge).filter(odd).chain(weft::range(std::int64_t{0}, huge)).find_first(
            [](std::int64_t x) { return x > 50; }) == 51);
  CHECK(weft::range(std::int64_t{0}, 1000).chain(weft::range(std::int64_t{0}, huge).filter(odd)).find_first(
            [](std::int64_t x) { return x == 77 + 1000; }) == 1077);
  CHECK(weft::range(std::int64_t{0}, huge).chain(weft::range(std::int64_t{0}, huge)).any(
            [](std::int64_t x) { return x == 9; }));
  CHECK(weft::range(std::int64_t{0}, huge).any([](std::int64_t x) { return x == 5000; }));
  CHECK_FALSE(weft::range(std::int64_t{0}, huge).all([](std::int64_t x) { return x < 777; }));
  CHECK_FALSE(weft::range(std::int64_t{0}, huge).none([](std::int64_t x) { return x == 3; }));
  CHECK(weft::range(std::int64_t{0}, huge).find_any([](std::int64_t x) { return x > 100 && x < 200; }).has_value());
  CHECK(weft::range(std::int64_t{0}, huge).with_max_len(1).find_first([](std::int64_t x) { return x == 99; }) == 99);
  CHECK(weft::range(std::int64_t{0}, huge).filter([](std::int64_t x) { return x % 2 == 1; }).find_first([](std::int64_t x) { return x > 50; }) == 51);
  // The last match of an indexed pipeline is searched from the end, at one thread too.
  weft::thread_pool one({.num_threads = 1});
  one.install([&] {
    CHECK(weft::range(std::int64_t{0}, huge).position_last([huge](std::int64_t x) { return x < huge - 1000; }) ==
          static_cast<std::size_t>(huge - 1001));
    CHECK(weft::range(std::int64_t{0}, huge).map([](std::int64_t x) { return x / 2; }).find_last(
              [](std::int64_t x) { return x % 1000 == 7; }) == (huge / 2 - 1) / 1000 * 1000 + 7);  // (2^39 - 1) ends in 887
    CHECK(weft::range(std::int64_t{0}, huge).with_max_len(1).rev().find_last([](std::int64_t x) { return x == 5; }) == 5);
  });
}

// After a filter or a flat_map (an unindexed pipeline) too: the pipeline is driven over its
// positions reversed, flat_map's inner ranges from their ends. Counted at one thread, where
// the left half would otherwise run to its end first: a match 1,000 from the end costs a few
// thousand predicate calls, not millions.
TEST_CASE("find_last after a filter starts at the end", "[iter][short-circuit]") {
  const std::int64_t n = std::int64_t{1} << 24;
  const auto odd = [](std::int64_t x) { return x % 2 != 0; };
  const auto positive = [](std::int64_t x) {
    return x > 0 ? std::optional<std::int64_t>(x) : std::nullopt;
  };
  for (const std::size_t threads : {std::size_t{1}, std::size_t{2}}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      std::atomic<std::int64_t> calls{0};
      const auto early = [&calls, n](std::int64_t x) {
        calls.fetch_add(1, std::memory_order_relaxed);
        return x < n - 1000;
      };
      CHECK(weft::range(std::int64_t{0}, n).filter(odd).find_last(early) == n - 1001);
      CHECK(weft::range(std::int64_t{0}, n).filter(odd).map([](std::int64_t x) { return x + 1; })
                .find_last(early) == n - 1002);
      CHECK(weft::range(std::int64_t{0}, n).filter_map(positive).inspect([](std::int64_t) {})
                .find_last(early) == n - 1001);
      // A chain reversed: b's items first; a's side is only searched when b has no match.
      const auto odd_below = [&odd](std::int64_t m) {
        return weft::range(std::int64_t{0}, m).filter(odd);
      };
      CHECK(odd_below(n).chain(odd_below(n)).find_last(early) == n - 1001);
      CHECK(weft::range(std::int64_t{0}, n).chain(odd_below(1000)).find_last(early) == 999);
      CHECK(odd_below(n).chain(odd_below(1000)).find_last([n](std::int64_t x) {
        return x > 1000 && x < n - 1000;
      }) == n - 1001);
      // flat_map walks each inner range from its end.
      CHECK(weft::range(std::int64_t{0}, n / 2).flat_map([](std::int64_t x) {
        return std::array<std::int64_t, 2>{2 * x, 2 * x + 1};
      }).find_last(early) == n - 1001);
      CHECK(weft::range(std::int64_t{0}, n / 4).map([](std::int64_t x) {
        return std::vector<std::int64_t>{4 * x, 4 * x + 1, 4 * x + 2, 4 * x + 3};
      }).flatten().find_last(early) == n - 1001);
      // Counted at one thread only: at two, how far the other thread gets from the front
      // before the match is recorded depends on scheduling.
      if (threads == 1) CHECK(calls.load() < n / 16);
      // An inner range that only goes forward: the search from the front, the same answer.
      CHECK(weft::range(std::int64_t{0}, 5000).flat_map([](std::int64_t x) {
        return std::forward_list<std::int64_t>{x, -x};
      }).find_last([](std::int64_t x) { return x > 0 && x % 7 == 0; }) == 4998);
      CHECK(odd_below(100).find_last([](std::int64_t) { return false; }) == std::nullopt);
    });
  }
}

// find_first and position_first over items in memory test them 16 at a time (find_last and
// position_last too, groups taken from the end): a match at any offset of a group, at a
// group's edges, two matches in one group, and a tail shorter than a group must all give the
// first (last) match; the predicate sees each item at most once.
TEST_CASE("find_first over memory: every match offset within and across groups",
          "[iter][requirement]") {
  weft::thread_pool one({.num_threads = 1});
  for (const std::size_t n : {std::size_t{15}, std::size_t{16}, std::size_t{17}, std::size_t{100},
                              std::size_t{4099}}) {
    std::vector<std::uint32_t> v(n, 0);
    const auto nonzero = [](std::uint32_t x) { return x != 0; };
    CHECK_FALSE(weft::iter(v).find_first(nonzero).has_value());
    for (std::size_t k = 0; k < n; ++k) {
      CAPTURE(n, k);
      v[k] = static_cast<std::uint32_t>(k + 1);
      if (k + 1 < n) v[k + 1] = 7;  // a second match right after the first
      if (k + 9 < n) v[k + 9] = 9;  // and one later in the same or the next group
      const auto hit = weft::iter(v).find_first(nonzero);
      REQUIRE(hit.has_value());
      CHECK(*hit == k + 1);
      CHECK(weft::iter(v).position_first(nonzero) == k);
      // Split at every item on the short inputs only: n forks per offset is O(n^2) joins,
      // which under TSan took most of this case's 44 s at n = 4099.
      const bool split_everywhere = n <= 100;
      if (split_everywhere) CHECK(weft::iter(v).with_max_len(1).position_first(nonzero) == k);
      const std::size_t last = k + 9 < n ? k + 9 : k + 1 < n ? k + 1 : k;
      CHECK(weft::iter(v).position_last(nonzero) == last);
      if (split_everywhere) CHECK(weft::iter(v).with_max_len(1).position_last(nonzero) == last);
      CHECK(weft::iter(v).find_last(nonzero) == v[last]);
      CHECK(weft::iter(v).skip(1).position_last(nonzero) ==
            (last > 0 ? std::optional<std::size_t>(last - 1) : std::nullopt));
      const auto some = weft::iter(v).position_any(nonzero);
      CHECK((some == k || some == k + 1 || some == k + 9));
      std::atomic<std::size_t> calls{0};
      const auto pos = one.install([&] {
        return weft::iter(v).position_first([&](std::uint32_t x) {
          calls.fetch_add(1, std::memory_order_relaxed);
          return x != 0;
        });
      });
      CHECK(pos == k);
      CHECK(calls.load() <= n);  // no item tested twice
      CHECK(calls.load() >= k + 1);
      calls.store(0);
      const auto last_pos = one.install([&] {
        return weft::iter(v).position_last([&](std::uint32_t x) {
          calls.fetch_add(1, std::memory_order_relaxed);
          return x != 0;
        });
      });
      CHECK(last_pos == last);
      CHECK(calls.load() <= n);
      CHECK(calls.load() >= n - last);
      std::fill(v.begin(), v.end(), 0u);
    }
  }
}

TEST_CASE("filter then count or integer sum: the branch-free path keeps every item's vote",
          "[iter][requirement]") {
  // filter(p).count() and filter(p).sum() of integers add `keep` or a masked item instead of
  // branching; narrow and unsigned sums must wrap as the plain loop does, and p must run
  // exactly once per item.
  std::vector<std::uint8_t> bytes(100'003);
  std::uint32_t x = 12345;
  for (auto& b : bytes) b = static_cast<std::uint8_t>((x = x * 1664525u + 1013904223u) >> 24);
  const auto odd = [](std::uint8_t b) { return (b & 1) != 0; };
  std::size_t want_count = 0;
  std::uint8_t want_wrapped = 0;
  long long want_wide = 0;
  for (const std::uint8_t b : bytes)
    if (odd(b)) {
      ++want_count;
      want_wrapped = static_cast<std::uint8_t>(want_wrapped + b);
      want_wide += b;
    }
  for (const std::size_t max_len : {std::size_t{0}, std::size_t{1}, std::size_t{977}}) {
    CAPTURE(max_len);
    const auto it = [&] { return weft::iter(bytes).with_max_len(max_len).filter(odd); };
    CHECK(it().count() == want_count);
    CHECK(it().sum() == want_wrapped);
    CHECK(it().sum<long long>() == want_wide);
    CHECK(it().sum<int>() == static_cast<int>(want_wide));
  }
  std::vector<int> v(65'537);
  for (auto& e : v) e = static_cast<int>((x = x * 1664525u + 1013904223u) >> 8) - (1 << 23);
  long long neg = 0;
  for (const int e : v) neg += e < 0 ? e : 0;
  std::atomic<std::size_t> calls{0};
  const auto negative = [&](int e) {
    calls.fetch_add(1, std::memory_order_relaxed);
    return e < 0;
  };
  CHECK(weft::iter(v).filter(negative).sum<long long>() == neg);
  CHECK(calls.load() == v.size());
}

TEST_CASE("searches past the probe run in doubling windows: every match position is found",
          "[iter][requirement]") {
  // 2 M items: the probe covers a few thousand, the rest goes window by window. Matches in
  // the probe, at window edges, deep in the input, twice, and nowhere.
  const std::size_t n = std::size_t{1} << 21;
  std::vector<std::int32_t> v(n, 0);
  const auto hit = [](std::int32_t x) { return x != 0; };
  for (const std::size_t at : {std::size_t{0}, std::size_t{4095}, std::size_t{70'001},
                               std::size_t{131'072}, std::size_t{1'000'003}, n - 1, n}) {
    CAPTURE(at);
    if (at < n) v[at] = static_cast<std::int32_t>(at % 1000 + 1);
    if (at + 5 < n) v[at + 5] = -1;  // a later match must lose to `at`
    const bool some = at < n;
    CHECK(weft::iter(v).any(hit) == some);
    CHECK(weft::iter(v).all([](std::int32_t x) { return x == 0; }) == !some);
    CHECK(weft::iter(v).find_any(hit).has_value() == some);
    CHECK(weft::iter(v).position_first(hit) == (some ? std::optional<std::size_t>(at) : std::nullopt));
    CHECK(weft::iter(v).position_last(hit) ==
          (some ? std::optional<std::size_t>(at + 5 < n ? at + 5 : at) : std::nullopt));
    const auto any_at = weft::iter(v).position_any(hit);
    CHECK(any_at.has_value() == some);
    if (any_at) CHECK((*any_at == at || *any_at == at + 5));
    const auto first = weft::iter(v).find_first(hit);
    CHECK(first == (some ? std::optional<std::int32_t>(v[at]) : std::nullopt));
    CHECK(static_cast<std::size_t>(weft::find_if(weft::par, v.begin(), v.end(), hit) - v.begin()) ==
          at);
    // Through a map (items that are not read from memory: no groups) and a filter (unindexed).
    CHECK(weft::iter(v).map([](std::int32_t x) { return x * 2; }).position_first(hit) ==
          (some ? std::optional<std::size_t>(at) : std::nullopt));
    CHECK(weft::iter(v).filter([](std::int32_t x) { return x >= 0; }).find_first(hit) == first);
    std::fill(v.begin(), v.end(), 0);
  }
}

TEST_CASE("deterministic(): a floating-point sum is bit-identical at any thread count",
          "[iter][requirement]") {
  auto rng = weft_test::seeded_rng(7);
  std::vector<double> v(1'000'003);
  for (auto& x : v) x = static_cast<double>(rng() % 1'000'000) * 1e-3 - 400.0 + 1e-9 * static_cast<double>(rng() % 1000);
  const double global = weft::iter(v).deterministic().sum();
  for (std::size_t threads : {1, 2, 3, 4}) {
    weft::thread_pool pool({.num_threads = threads});
    for (int round = 0; round < 5; ++round) {
      const double s = pool.install([&] { return weft::iter(v).deterministic().sum(); });
      CHECK(s == global);  // exact: same tree, same lanes
      const double r = pool.install([&] {
        return weft::iter(v).deterministic().with_min_len(1000).reduce(0.0, [](double a, double b) { return a + b; });
      });
      const double r_again = weft::iter(v).deterministic().with_min_len(1000).reduce(0.0, [](double a, double b) { return a + b; });
      CHECK(r == r_again);
    }
  }
}

// A started leaf cuts the rest of its range when another thread is idle and has nothing
// else to take (bridge.hpp, split_rest). Here the first quarter of the items is slow and
// the rest fast, so the leaf holding the slow items is still running when the other thread
// runs dry: every consumer must still give the sequential answer, in order. Whether a cut
// happens depends on timing (an instrumented build counted 6 cuts in one run of this test
// at 2 threads), so correctness is checked, the cut is not.
TEST_CASE("a running leaf cuts its rest for an idle thread: results stay exact and ordered",
          "[iter][requirement]") {
  const std::size_t n = 1 << 15;
  std::vector<std::int64_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  const auto slow = [n](std::int64_t x) {
    std::int64_t y = x;
    if (static_cast<std::size_t>(x) < n / 4)
      for (int k = 0; k < 300; ++k) y = (y * 7 + k) % 1000003;  // a few hundred ns
    return x + (y - y);
  };
  const auto items = [&] { return weft::iter(v).map(slow); };
  for (int round = 0; round < 8; ++round) {
    CHECK(items().sum() == static_cast<std::int64_t>(n) * (n - 1) / 2);
    CHECK(items().to_vector() == v);
    const auto odd = items().filter([](std::int64_t x) { return x % 2 == 1; }).to_vector();
    CHECK(odd.size() == n / 2);
    CHECK(std::is_sorted(odd.begin(), odd.end()));
    const auto [even_part, odd_part] = items().partition([](std::int64_t x) { return x % 2 == 0; });
    CHECK(even_part.size() == n / 2);
    CHECK(std::is_sorted(even_part.begin(), even_part.end()));
    CHECK(std::is_sorted(odd_part.begin(), odd_part.end()));
    CHECK(items().max() == static_cast<std::int64_t>(n - 1));
    CHECK(items().find_first([n](std::int64_t x) { return x >= static_cast<std::int64_t>(n / 4 - 3); }) ==
          static_cast<std::int64_t>(n / 4 - 3));
    CHECK(items().find_last([n](std::int64_t x) { return x < static_cast<std::int64_t>(n / 8); }) ==
          static_cast<std::int64_t>(n / 8 - 1));
    CHECK_THROWS_AS(items().for_each([n](std::int64_t x) {
      if (x == static_cast<std::int64_t>(n / 4 - 1)) throw std::runtime_error("late in the slow leaf");
    }), std::runtime_error);
  }
}

TEST_CASE("items that grow costlier than the probe saw: results stay exact and ordered",
          "[iter][requirement]") {
  // The probe sees cheap first items and sizes blocks for them; later items cost up to
  // ~100x more, so leaves there refit their blocks (and cut their rest when a thread idles).
  const std::int64_t n = 3000;
  const auto cost = [](std::int64_t i) {
    std::uint64_t x = static_cast<std::uint64_t>(i) + 1;
    for (std::int64_t k = 0; k < i; ++k) x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ULL;
    return static_cast<std::int64_t>(x % 1000);
  };
  std::vector<std::int64_t> want(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) want[static_cast<std::size_t>(i)] = cost(i);
  const std::int64_t want_sum = std::accumulate(want.begin(), want.end(), std::int64_t{0});
  for (int round = 0; round < 4; ++round) {
    CHECK(weft::range(std::int64_t{0}, n).map(cost).sum() == want_sum);
    CHECK(weft::range(std::int64_t{0}, n).map(cost).to_vector() == want);
    CHECK(weft::range(std::int64_t{0}, n).map(cost).position_first([&](std::int64_t x) {
      return x == want.back();
    }) == static_cast<std::size_t>(std::find(want.begin(), want.end(), want.back()) - want.begin()));
  }
}

TEST_CASE("to_vector of a large output (prefaulted) holds every item", "[iter][requirement]") {
  // Over the engine's prefault threshold (8 MiB): the output's pages are faulted in on every
  // worker before the items are written; from algo::stream_min_bytes (16 MiB) the items are
  // written with streaming stores, a line at a time. 3 M + 5 int64 (24 MB) end inside a page;
  // 200,003 of them (1.6 MB) stay under both thresholds. with_max_len(997) puts the leaves'
  // boundaries anywhere within a cache line (the plain stores at a block's ends).
  for (const std::size_t n : {std::size_t{3'000'005}, std::size_t{200'003}}) {
    for (const std::size_t max_len : {std::size_t{0}, std::size_t{997}}) {
      CAPTURE(n, max_len);
      auto items = weft::range(std::int64_t{0}, static_cast<std::int64_t>(n))
                       .map([](std::int64_t x) { return x * 3 + 1; });
      const auto out =
          max_len ? std::move(items).with_max_len(max_len).to_vector() : items.to_vector();
      REQUIRE(out.size() == n);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) wrong += out[i] != static_cast<std::int64_t>(i) * 3 + 1;
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("to_vector and partition after a filter gather large outputs in order",
          "[iter][requirement]") {
  // Over prefault_min_bytes (8 MiB) of kept int64 the pieces are copied into the output on
  // every worker, each block of output indices from the pieces that hold it (2.2 M kept:
  // past stream_min_bytes, 16 MiB, so through streaming stores). with_max_len makes thousands
  // of pieces whose boundaries fall anywhere in those blocks; without it a 1-thread pool may
  // gather one piece, which is returned as it is.
  const std::int64_t n = 3'300'007;
  const auto kept = [](std::int64_t x) { return x % 3 != 1; };
  std::vector<std::int64_t> want, rest;
  for (std::int64_t x = 0; x < n; ++x) (kept(x) ? want : rest).push_back(x * 5 - 7);
  for (const std::size_t max_len : {std::size_t{997}, std::size_t{1} << 20, std::size_t{0}}) {
    auto items = weft::range(std::int64_t{0}, n).map([](std::int64_t x) { return x; });
    const auto go = [&](auto pipeline) {
      return max_len ? std::move(pipeline).with_max_len(max_len) : std::move(pipeline);
    };
    const auto out = go(items).filter(kept).map([](std::int64_t x) { return x * 5 - 7; }).to_vector();
    // Not decomposed: Catch2 would print millions of items on a failure.
    CHECK((out == want));
    const auto [yes, no] = go(items).map([](std::int64_t x) { return x * 5 - 7; })
                               .partition([](std::int64_t y) { return (y + 7) / 5 % 3 != 1; });
    CHECK((yes == want));
    CHECK((no == rest));
  }
}

TEST_CASE("pipelines nest and run on the installing pool", "[iter][interface]") {
  std::vector<std::vector<int>> rows(300, std::vector<int>(1000));
  for (std::size_t r = 0; r < rows.size(); ++r) std::iota(rows[r].begin(), rows[r].end(), static_cast<int>(r));
  const long total = weft::iter(rows).map([](const std::vector<int>& row) { return weft::iter(row).sum<long>(); }).sum();
  long want = 0;
  for (const auto& row : rows) want += std::accumulate(row.begin(), row.end(), 0L);
  CHECK(total == want);

  weft::thread_pool pool({.num_threads = 3});
  std::vector<std::atomic<int>> seen(3);
  std::atomic<int> outside{0};  // Catch2 assertions are not thread-safe: count, check after
  pool.install([&] {
    weft::range(0, 100000).with_max_len(64).for_each([&](int) {
      const auto idx = weft::thread_index();
      if (idx && *idx < seen.size())
        seen[*idx].fetch_add(1, std::memory_order_relaxed);
      else
        outside.fetch_add(1, std::memory_order_relaxed);
    });
  });
  CHECK(outside.load() == 0);
  CHECK(seen[0] + seen[1] + seen[2] == 100000);
}

TEST_CASE("a stored pipeline can run several consumers", "[iter][interface]") {
  std::vector<int> v(5000);
  std::iota(v.begin(), v.end(), 0);
  auto evens = weft::iter(v).filter([](int x) { return x % 2 == 0; });
  CHECK(evens.count() == 2500);
  CHECK(evens.max() == 4998);
  auto squares = evens.map([](int x) { return static_cast<long>(x) * x; });  // copies `evens`
  CHECK(squares.min() == 0L);
  CHECK(evens.sum() == 2500 * 4998 / 2);
  CHECK_THROWS_AS(weft::iter(v).chunks(0), std::invalid_argument);
  CHECK_THROWS_AS(weft::iter(v).step_by(0), std::invalid_argument);
}

TEST_CASE("flat_map moves out of a returned container, never out of a view", "[iter][interface]") {
  // A container returned by value is the pipeline's own: its elements are moved out, so
  // move-only elements reach to_vector, and strings are not copied.
  auto owned = weft::range(0, 1000)
                   .flat_map([](int i) {
                     std::vector<std::unique_ptr<int>> v;
                     for (int k = 0; k < i % 3; ++k) v.push_back(std::make_unique<int>(i));
                     return v;
                   })
                   .to_vector();
  REQUIRE(owned.size() == 999);
  CHECK(*owned.back() == 998);
  auto pairs = weft::range(0, 1000)
                   .flat_map([](int i) { return std::array<std::string, 2>{std::to_string(i), std::string(30, 'x')}; })
                   .to_vector();
  REQUIRE(pairs.size() == 2000);
  CHECK(pairs[1998] == "999");
  CHECK(pairs[1999].size() == 30);

  // Views (std or range-v3) and references refer to the caller's strings: left intact.
  std::vector<std::string> words(50, std::string(40, 'w'));
  const auto intact = [&] {
    return std::all_of(words.begin(), words.end(), [](const std::string& w) { return w.size() == 40; });
  };
  CHECK(weft::range(0, 100).flat_map([&](int) { return std::span(words); }).to_vector().size() == 5000);
  CHECK(intact());
  CHECK(weft::range(0, 100).flat_map([&](int) { return ranges::views::transform(words, [](std::string& w) -> std::string& { return w; }); })
            .to_vector()
            .size() == 5000);
  CHECK(intact());
  CHECK(weft::range(0, 100).flat_map([&](int) -> std::vector<std::string>& { return words; }).to_vector().size() == 5000);
  CHECK(intact());
  // A range whose end is a sentinel of another type (take_while over an unbounded iota).
  CHECK(weft::range(0, 100)
            .flat_map([](int i) { return std::views::iota(0) | std::views::take_while([i](int k) { return k < i % 4; }); })
            .count() == 150);

  // flatten(): borrowed inner containers stay the caller's (mutable references, strings
  // intact); containers the pipeline makes have their elements moved out.
  std::vector<std::vector<int>> nested{{1, 2}, {}, {3}, {4, 5, 6}};
  weft::iter(nested).with_max_len(1).flatten().for_each([](int& x) { x *= 10; });
  CHECK(nested == std::vector<std::vector<int>>{{10, 20}, {}, {30}, {40, 50, 60}});
  std::vector<std::vector<std::string>> texts(30, words);
  CHECK(weft::iter(texts).flatten().to_vector().size() == 30 * words.size());
  CHECK(intact());
  auto moved = weft::range(0, 1000)
                   .map([](int i) {
                     std::vector<std::unique_ptr<int>> v;
                     v.push_back(std::make_unique<int>(i));
                     return v;
                   })
                   .flatten()
                   .to_vector();
  REQUIRE(moved.size() == 1000);
  CHECK(*moved.back() == 999);
}
