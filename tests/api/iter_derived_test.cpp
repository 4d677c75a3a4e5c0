// SPDX-License-Identifier: MIT
// The composed adaptors (positions, zip_eq, update, fold_chunks), the lexicographic
// comparisons (eq, ne, cmp, lt, le, gt, ge) and weft::extend, against plain sequential loops:
// sizes 0, 1, 2, 1,000 and 100,003, pools of 1, 2 and 7 threads.
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace {

using weft_test::on_every_pool;

constexpr std::size_t sizes[] = {0, 1, 2, 1000, 100003};

std::vector<std::int64_t> items_of(std::size_t n) {
  std::vector<std::int64_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::int64_t>((i * 7919) % 1009);
  return v;
}


}  // namespace

TEST_CASE("positions: every position whose item matches in order", "[iter][derived]") {
  on_every_pool([](std::size_t) {
    for (std::size_t n : sizes) {
      const auto v = items_of(n);
      const auto p = [](std::int64_t x) { return x % 5 == 0; };
      std::vector<std::size_t> expected;
      for (std::size_t i = 0; i < n; ++i)
        if (p(v[i])) expected.push_back(i);
      CHECK(weft::iter(v).positions(p).to_vector() == expected);
      CHECK(weft::iter(v).with_max_len(3).positions(p).count() == expected.size());
      // After a map: the positions are the pipeline's, not the source's.
      const auto shifted = weft::iter(v).skip(1).positions(p).to_vector();
      std::vector<std::size_t> expected_shifted;
      for (std::size_t i = 1; i < n; ++i)
        if (p(v[i])) expected_shifted.push_back(i - 1);
      CHECK(shifted == expected_shifted);
    }
  });
}

TEST_CASE("zip_eq: pairs sides of equal length and refuses others", "[iter][derived]") {
  on_every_pool([](std::size_t) {
    for (std::size_t n : sizes) {
      const auto a = items_of(n);
      std::vector<std::int64_t> b(n);
      for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::int64_t>(i);
      std::int64_t expected = 0;
      for (std::size_t i = 0; i < n; ++i) expected += a[i] * b[i];
      CHECK(weft::iter(a).zip_eq(b).map([](auto p) { return p.first * p.second; }).sum() ==
            expected);
      CHECK(weft::iter(a).zip_eq(weft::range(std::size_t{0}, n)).count() == n);
      CHECK_THROWS_AS(weft::iter(a).zip_eq(weft::range(std::size_t{0}, n + 1)),
                      std::invalid_argument);
      if (n > 0) CHECK_THROWS_AS(weft::iter(a).zip_eq(weft::iter(b).skip(1)), std::invalid_argument);
    }
  });
}

TEST_CASE("update: changes a copy of each item and never the source", "[iter][derived]") {
  on_every_pool([](std::size_t) {
    for (std::size_t n : sizes) {
      auto v = items_of(n);
      const auto before = v;
      const auto doubled = weft::iter(v).update([](std::int64_t& x) { x *= 2; }).to_vector();
      REQUIRE(doubled.size() == n);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) wrong += doubled[i] != 2 * before[i];
      CHECK(wrong == 0);
      CHECK(v == before);
      std::vector<std::string> words(n, "w");
      const auto longer = weft::iter(words).update([](std::string& s) { s += "x"; });
      CHECK(longer.map([](const std::string& s) { return s.size(); }).sum() == 2 * n);
      CHECK((n == 0 || words[0] == "w"));
    }
  });
}

TEST_CASE("fold_chunks: one fold per run of n items in order", "[iter][derived]") {
  on_every_pool([](std::size_t) {
    for (std::size_t n : sizes) {
      const auto v = items_of(n);
      for (std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{1000}, n + 1}) {
        std::vector<std::int64_t> expected;
        for (std::size_t lo = 0; lo < n; lo += chunk) {
          std::int64_t s = 0;
          for (std::size_t i = lo; i < std::min(n, lo + chunk); ++i) s = s * 3 % 1000003 + v[i];
          expected.push_back(s);
        }
        const auto fold = [](std::int64_t s, std::int64_t x) { return s * 3 % 1000003 + x; };
        CHECK(weft::iter(v).fold_chunks(chunk, std::int64_t{0}, fold).to_vector() == expected);
        const auto make_zero = [] { return std::int64_t{0}; };
        CHECK(weft::iter(v).fold_chunks(chunk, make_zero, fold).count() == expected.size());
      }
      CHECK_THROWS_AS(weft::iter(v).fold_chunks(0, 0, [](int s, std::int64_t) { return s; }),
                      std::invalid_argument);
    }
  });
}

TEST_CASE("eq ne cmp lt le gt ge: lexicographic as std::lexicographical_compare_three_way",
          "[iter][derived]") {
  on_every_pool([](std::size_t) {
    for (std::size_t n : sizes) {
      const auto a = items_of(n);
      std::vector<std::vector<std::int64_t>> others{a};
      if (n > 0) {
        auto shorter = a;
        shorter.pop_back();
        others.push_back(shorter);
        for (std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
          auto less = a;
          less[at] -= 1;
          others.push_back(less);
          auto greater = a;
          greater[at] += 1;
          others.push_back(greater);
        }
      }
      auto longer = a;
      longer.push_back(0);
      others.push_back(longer);
      for (const auto& b : others) {
        const auto expected =
            std::lexicographical_compare_three_way(a.begin(), a.end(), b.begin(), b.end());
        CHECK(weft::iter(a).cmp(b) == expected);
        CHECK(weft::iter(a).eq(b) == (a == b));
        CHECK(weft::iter(a).ne(weft::iter(b)) == (a != b));
        CHECK(weft::iter(a).lt(b) == (a < b));
        CHECK(weft::iter(a).le(b) == (a <= b));
        CHECK(weft::iter(a).gt(b) == (a > b));
        CHECK(weft::iter(a).ge(b) == (a >= b));
      }
    }
    // Floating point: a NaN makes the sides unordered, the comparisons false.
    const std::vector<double> x{1.0, std::nan(""), 3.0};
    const std::vector<double> y{1.0, 2.0, 3.0};
    CHECK(weft::iter(x).cmp(y) == std::partial_ordering::unordered);
    CHECK_FALSE(weft::iter(x).lt(y));
    CHECK_FALSE(weft::iter(x).ge(y));
    CHECK_FALSE(weft::iter(x).eq(x));
    // Different item types that compare with each other; a mapped side.
    const std::vector<int> small{1, 2, 3};
    CHECK(weft::iter(small).eq(weft::range(std::int64_t{1}, std::int64_t{4})));
    CHECK(weft::iter(small).map([](int v) { return v * 2; }).gt(small));
  });
}

TEST_CASE("extend: appends in order on every path and keeps the old elements on a throw",
          "[iter][derived]") {
  on_every_pool([](std::size_t) {
    for (std::size_t n : sizes) {
      const auto v = items_of(n);
      // The direct path: a vector and an indexed pipeline.
      std::vector<std::int64_t> out{-1, -2};
      weft::extend(out, weft::iter(v).map([](std::int64_t x) { return x + 1; }));
      REQUIRE(out.size() == n + 2);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) wrong += out[i + 2] != v[i] + 1;
      CHECK(wrong == 0);
      CHECK((out[0] == -1 && out[1] == -2));
      // Collected first: an unindexed pipeline; an associative container.
      const auto odd = [](std::int64_t x) { return x % 2 != 0; };
      std::vector<std::int64_t> filtered{7};
      weft::extend(filtered, weft::iter(v).filter(odd));
      std::vector<std::int64_t> expected{7};
      for (auto x : v)
        if (odd(x)) expected.push_back(x);
      CHECK(filtered == expected);
      std::set<std::int64_t> distinct{-5};
      weft::extend(distinct, v);
      std::set<std::int64_t> expected_set(v.begin(), v.end());
      expected_set.insert(-5);
      CHECK(distinct == expected_set);
      std::map<std::size_t, std::int64_t> by_position;
      weft::extend(by_position, weft::iter(v).enumerate());
      CHECK(by_position.size() == n);
      // Move-only items made by value are moved in.
      std::vector<std::unique_ptr<std::size_t>> owned;
      weft::extend(owned, weft::range(std::size_t{0}, n).map([](std::size_t i) {
        return std::make_unique<std::size_t>(i);
      }));
      REQUIRE(owned.size() == n);
      CHECK((n == 0 || *owned.back() == n - 1));
      // A throw leaves exactly the old elements, on both paths.
      if (n > 0) {
        const auto throw_at_end = [n](std::int64_t x) {
          if (x == static_cast<std::int64_t>(n - 1)) throw std::runtime_error("item");
          return x;
        };
        std::vector<std::int64_t> kept{1, 2, 3};
        CHECK_THROWS_AS(weft::extend(kept, weft::range(std::int64_t{0}, static_cast<std::int64_t>(n))
                                               .map(throw_at_end)),
                        std::runtime_error);
        CHECK(kept == std::vector<std::int64_t>{1, 2, 3});
        CHECK_THROWS_AS(weft::extend(kept, weft::range(std::int64_t{0}, static_cast<std::int64_t>(n))
                                               .filter([](std::int64_t) { return true; })
                                               .map(throw_at_end)),
                        std::runtime_error);
        CHECK(kept == std::vector<std::int64_t>{1, 2, 3});
      }
    }
    std::string text = "ab";
    weft::extend(text, std::string("cd"));
    CHECK(text == "abcd");
  });
}

TEST_CASE("fold fold_with reduce_with flat_map_iter flatten_iter", "[iter][derived]") {
  on_every_pool([](std::size_t) {
    for (std::size_t n : sizes) {
      const auto v = items_of(n);
      std::int64_t total = 0;
      for (auto x : v) total += x * x;
      const auto add_square = [](std::int64_t s, std::int64_t x) { return s + x * x; };
      const auto plus = [](std::int64_t a, std::int64_t b) { return a + b; };
      // One accumulator per leaf: their count depends on the split, their sum does not.
      CHECK(weft::iter(v).fold(std::int64_t{0}, add_square).reduce(std::int64_t{0}, plus) ==
            total);
      CHECK(weft::iter(v).with_max_len(10).fold_with(std::int64_t{0}, add_square).sum() == total);
      const auto leaves = weft::iter(v).with_max_len(10).fold([] { return std::int64_t{0}; },
                                                              add_square).count();
      CHECK(leaves >= (n + 9) / 10);  // leaves of at most 10 items, none empty
      CHECK(leaves <= n);
      // Accumulators in order: each leaf's vector of items, concatenated, is the input.
      const auto pieces =
          weft::iter(v)
              .with_max_len(7)
              .fold([] { return std::vector<std::int64_t>{}; },
                    [](std::vector<std::int64_t> acc, std::int64_t x) {
                      acc.push_back(x);
                      return acc;
                    })
              .to_vector();
      std::vector<std::int64_t> joined;
      for (const auto& p : pieces) joined.insert(joined.end(), p.begin(), p.end());
      CHECK(joined == v);
      // After a filter too.
      CHECK(weft::iter(v).filter([](std::int64_t x) { return x % 2 == 0; })
                .fold(std::int64_t{0}, [](std::int64_t s, std::int64_t x) { return s + x; })
                .sum() == [&] {
              std::int64_t even = 0;
              for (auto x : v) even += x % 2 == 0 ? x : 0;
              return even;
            }());
      // reduce_with: nothing for no items; a non-commutative op keeps the order.
      const auto r = weft::iter(v).map([](std::int64_t x) { return x * x; }).reduce_with(plus);
      CHECK(r.has_value() == (n > 0));
      if (r) CHECK(*r == total);
      const auto concat = [](std::string a, const std::string& b) {
        a += b;  // in place: a + b would copy the whole prefix per item (quadratic)
        return a;
      };
      std::vector<std::string> digits(n);
      std::string expected;
      for (std::size_t i = 0; i < n; ++i) {
        digits[i] = std::to_string(i % 10);
        expected += digits[i];
      }
      const auto joined_digits = weft::iter(digits).reduce_with(concat);
      CHECK(joined_digits.value_or("none") == (n > 0 ? expected : "none"));
      // flat_map_iter and flatten_iter are flat_map and flatten.
      const auto twice = [](std::int64_t x) { return std::vector<std::int64_t>{x, x}; };
      CHECK(weft::iter(v).flat_map_iter(twice).count() == 2 * n);
      CHECK(weft::iter(v).map(twice).flatten_iter().sum() == 2 * [&] {
              std::int64_t s = 0;
              for (auto x : v) s += x;
              return s;
            }());
    }
  });
}

TEST_CASE("interleave interleave_shortest intersperse as sequential loops", "[iter][derived]") {
  on_every_pool([](std::size_t) {
    for (std::size_t n : sizes) {
      const auto a = items_of(n);
      for (std::size_t m : {std::size_t{0}, std::size_t{1}, n / 2, n, n + 3}) {
        std::vector<std::int64_t> b(m);
        for (std::size_t i = 0; i < m; ++i) b[i] = -static_cast<std::int64_t>(i) - 1;
        std::vector<std::int64_t> all, shortest;
        for (std::size_t i = 0; i < std::max(n, m); ++i) {
          if (i < n) all.push_back(a[i]);
          if (i < m) all.push_back(b[i]);
        }
        for (std::size_t i = 0;; ++i) {
          if (i >= n) break;
          shortest.push_back(a[i]);
          if (i >= m) break;
          shortest.push_back(b[i]);
        }
        if (n > m) shortest.resize(2 * m + 1);
        CHECK(weft::iter(a).interleave(b).to_vector() == all);
        CHECK(weft::iter(a).interleave(b).size() == n + m);
        CHECK(weft::iter(a).interleave_shortest(b).to_vector() == shortest);
        CHECK(weft::iter(a).with_max_len(3).interleave_shortest(weft::iter(b)).count() ==
              shortest.size());
      }
      std::vector<std::int64_t> spaced;
      for (std::size_t i = 0; i < n; ++i) {
        if (i > 0) spaced.push_back(-1);
        spaced.push_back(a[i]);
      }
      CHECK(weft::iter(a).intersperse(std::int64_t{-1}).to_vector() == spaced);
      CHECK(weft::iter(a).intersperse(std::int64_t{-1}).rev().position_first([](std::int64_t x) {
        return x == -1;
      }) == (n > 1 ? std::optional<std::size_t>(1) : std::nullopt));
    }
    const std::vector<std::string> words{"a", "b", "c"};
    CHECK(weft::iter(words)
              .intersperse(std::string(", "))
              .reduce(std::string(), [](std::string l, const std::string& r) { return l + r; }) ==
          "a, b, c");
  });
}

TEST_CASE("take_any skip_any and their _while forms keep the counts and rules",
          "[iter][derived]") {
  on_every_pool([](std::size_t) {
    for (std::size_t n : sizes) {
      const auto v = items_of(n);
      for (std::size_t k : {std::size_t{0}, std::size_t{1}, n / 3, n, n + 5}) {
        auto taken = weft::iter(v).enumerate().take_any(k).to_vector();
        CHECK(taken.size() == std::min(k, n));
        std::sort(taken.begin(), taken.end());
        CHECK(std::adjacent_find(taken.begin(), taken.end()) == taken.end());  // each once
        std::size_t wrong = 0;
        for (const auto& [i, x] : taken) wrong += x != v[i];
        CHECK(wrong == 0);
        // What skip_any drops and what it keeps partition the items.
        CHECK(weft::iter(v).skip_any(k).count() == n - std::min(k, n));
        CHECK(weft::iter(v).filter([](std::int64_t x) { return x % 2 == 0; }).take_any(k).count() ==
              std::min<std::size_t>(k, static_cast<std::size_t>(std::count_if(
                                           v.begin(), v.end(), [](std::int64_t x) { return x % 2 == 0; }))));
      }
      // take_any_while: only items that pass; all of them when none fails.
      const auto small = [](std::int64_t x) { return x < 900; };
      const auto kept = weft::iter(v).take_any_while(small).to_vector();
      CHECK(std::all_of(kept.begin(), kept.end(), small));
      CHECK(weft::iter(v).take_any_while([](std::int64_t) { return true; }).count() == n);
      // skip_any_while: every failing item passes, and nothing is passed twice.
      const auto passed = weft::iter(v).skip_any_while(small).to_vector();
      const auto failing = static_cast<std::size_t>(std::count_if(
          v.begin(), v.end(), [&](std::int64_t x) { return !small(x); }));
      CHECK(static_cast<std::size_t>(std::count_if(passed.begin(), passed.end(),
                                                   [&](std::int64_t x) { return !small(x); })) == failing);
      CHECK(passed.size() <= n);
      CHECK(weft::iter(v).skip_any_while([](std::int64_t) { return true; }).count() == 0);
    }
  });
}

TEST_CASE("partition_map splits by the variant's alternative in order", "[iter][derived]") {
  on_every_pool([](std::size_t) {
    for (std::size_t n : sizes) {
      const auto v = items_of(n);
      std::vector<std::int64_t> left;
      std::vector<std::string> right;
      for (auto x : v) {
        if (x % 3 == 0)
          left.push_back(x);
        else
          right.push_back(std::to_string(x));
      }
      const auto route = [](std::int64_t x) -> std::variant<std::int64_t, std::string> {
        if (x % 3 == 0) return x;
        return std::to_string(x);
      };
      const auto [l, r] = weft::iter(v).partition_map(route);
      CHECK(l == left);
      CHECK(r == right);
      const auto [fl, fr] = weft::iter(v).filter([](std::int64_t x) { return x > 10; }).partition_map(route);
      CHECK(fl.size() + fr.size() ==
            static_cast<std::size_t>(std::count_if(v.begin(), v.end(), [](std::int64_t x) { return x > 10; })));
    }
  });
}

TEST_CASE("by_exponential_blocks and by_uniform_blocks keep results and stop early",
          "[iter][derived]") {
  on_every_pool([](std::size_t threads) {
    for (std::size_t n : sizes) {
      const auto v = items_of(n);
      std::int64_t total = 0;
      for (auto x : v) total += x;
      CHECK(weft::iter(v).by_exponential_blocks().sum() == total);
      CHECK(weft::iter(v).by_uniform_blocks(1000).to_vector() == v);
      CHECK(weft::iter(v).by_uniform_blocks(7).map([](std::int64_t x) { return x * 2; }).sum() ==
            2 * total);
      // A match near the front: later blocks never start.
      if (n >= 1000) {
        std::atomic<std::size_t> seen{0};
        const auto hit = weft::iter(v)
                             .enumerate()
                             .by_exponential_blocks()
                             .inspect([&seen](const auto&) { seen.fetch_add(1); })
                             .find_first([](const auto& p) { return p.first == 3; });
        REQUIRE(hit.has_value());
        CHECK(hit->first == 3);
        // Blocks of threads, 2 x threads, ...: the match is in one of the first blocks, and
        // only they run (up to 3 more items than the match's own block needs).
        CHECK(seen.load() <= 3 * std::max<std::size_t>(threads, 4) + 4);
      }
    }
    std::vector<int> some{1, 2};
    CHECK_THROWS_AS(weft::iter(some).by_uniform_blocks(0), std::invalid_argument);
  });
}

TEST_CASE("inclusive_scan and exclusive_scan stages as std's scans", "[iter][derived]") {
  on_every_pool([](std::size_t) {
    for (std::size_t n : sizes) {
      const auto v = items_of(n);
      std::vector<std::int64_t> inclusive(n), exclusive(n);
      std::inclusive_scan(v.begin(), v.end(), inclusive.begin());
      std::exclusive_scan(v.begin(), v.end(), exclusive.begin(), std::int64_t{5});
      CHECK(weft::iter(v).inclusive_scan().to_vector() == inclusive);
      CHECK(weft::iter(v).exclusive_scan(std::int64_t{5}).to_vector() == exclusive);
      // After a filter, and followed by more stages: the scan's pipeline is indexed.
      std::vector<std::int64_t> odd;
      for (auto x : v)
        if (x % 2 != 0) odd.push_back(x);
      std::vector<std::int64_t> odd_max(odd.size());
      std::inclusive_scan(odd.begin(), odd.end(), odd_max.begin(),
                          [](std::int64_t a, std::int64_t b) { return std::max(a, b); });
      auto scanned = weft::iter(v)
                         .filter([](std::int64_t x) { return x % 2 != 0; })
                         .inclusive_scan([](std::int64_t a, std::int64_t b) { return std::max(a, b); });
      CHECK(scanned.size() == odd.size());
      CHECK(scanned.enumerate().all([&](const auto& p) { return p.second == odd_max[p.first]; }));
    }
  });
}

TEST_CASE("collect into sets maps and strings", "[iter][derived]") {
  on_every_pool([](std::size_t) {
    for (std::size_t n : sizes) {
      const auto v = items_of(n);
      CHECK(weft::iter(v).collect<std::set<std::int64_t>>() ==
            std::set<std::int64_t>(v.begin(), v.end()));
      const auto by_position = weft::iter(v).enumerate().collect<std::map<std::size_t, std::int64_t>>();
      CHECK(by_position.size() == n);
      CHECK((n == 0 || by_position.at(n - 1) == v.back()));
      const auto hashed =
          weft::iter(v).enumerate().collect<std::unordered_map<std::size_t, std::int64_t>>();
      CHECK(hashed.size() == n);
      const auto letters = weft::iter(v)
                               .map([](std::int64_t x) { return static_cast<char>('a' + x % 26); })
                               .collect<std::string>();
      REQUIRE(letters.size() == n);
      CHECK((n == 0 || letters[n - 1] == static_cast<char>('a' + v.back() % 26)));
    }
  });
}
