// SPDX-License-Identifier: MIT
// weft::par_bridge against sequential loops over the same sources: std::list, std::set,
// std::map, std::unordered_map, a stream, a generator, a container moved in; sizes 0, 1, 2,
// 1,000 and 100,003; pools of 1, 2 and 7 threads. Items arrive in no order, so results are
// compared as sorted multisets; each item is taken exactly once.
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <ranges>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using weft_test::on_every_pool;

constexpr std::size_t sizes[] = {0, 1, 2, 1000, 100003};


template <class T>
std::vector<T> sorted(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("par_bridge takes every item of a container once", "[iter][par_bridge]") {
  on_every_pool([] {
    for (std::size_t n : sizes) {
      std::list<std::int64_t> list;
      for (std::size_t i = 0; i < n; ++i) list.push_back(static_cast<std::int64_t>(i * 7 % 1009));
      const std::vector<std::int64_t> expected = sorted(std::vector(list.begin(), list.end()));
      CHECK(sorted(weft::par_bridge(list).to_vector()) == expected);
      CHECK(weft::par_bridge(list).count() == n);
      // Items of an lvalue forward range are references: writes reach the container.
      weft::par_bridge(list).for_each([](std::int64_t& x) { x += 1; });
      std::size_t wrong = 0;
      auto it = list.begin();
      for (std::size_t i = 0; i < n; ++i, ++it) wrong += *it != static_cast<std::int64_t>(i * 7 % 1009) + 1;
      CHECK(wrong == 0);

      const std::set<std::int64_t> set(expected.begin(), expected.end());
      CHECK(sorted(weft::par_bridge(set).to_vector()) == std::vector(set.begin(), set.end()));
      std::map<std::size_t, std::int64_t> map;
      std::unordered_map<std::size_t, std::int64_t> hashed;
      for (std::size_t i = 0; i < n; ++i) map[i] = hashed[i] = static_cast<std::int64_t>(i);
      const auto second = [](const auto& kv) { return kv.second; };
      const std::int64_t total = static_cast<std::int64_t>(n) * (static_cast<std::int64_t>(n) - 1) / 2;
      CHECK(weft::par_bridge(map).map(second).sum() == total);
      CHECK(weft::par_bridge(hashed).map(second).sum() == total);
      // A container moved in: its items are moved out (move-only items work).
      std::vector<std::unique_ptr<std::size_t>> owned;
      for (std::size_t i = 0; i < n; ++i) owned.push_back(std::make_unique<std::size_t>(i));
      auto values =
          weft::par_bridge(std::move(owned)).map([](std::unique_ptr<std::size_t> p) { return *p; });
      CHECK(values.sum() == n * (n == 0 ? 0 : n - 1) / 2);
    }
  });
}

TEST_CASE("par_bridge over a stream and a generator", "[iter][par_bridge]") {
  on_every_pool([] {
    for (std::size_t n : sizes) {
      std::string text;
      for (std::size_t i = 0; i < n; ++i) text += std::to_string(i) + " ";
      std::istringstream in(text);
      CHECK(weft::par_bridge(std::views::istream<std::size_t>(in)).sum() ==
            n * (n == 0 ? 0 : n - 1) / 2);
      std::size_t next = 0;
      const auto numbers = [&next, n]() -> std::optional<std::size_t> {
        if (next == n) return std::nullopt;
        return next++;
      };
      auto squares = weft::par_bridge(numbers).map([](std::size_t x) { return x * x; });
      std::vector<std::size_t> expected;
      for (std::size_t i = 0; i < n; ++i) expected.push_back(i * i);
      CHECK(sorted(squares.to_vector()) == expected);
      // The source is consumed: a second run of the same pipeline finds it empty.
      CHECK(squares.count() == 0);
      // Filters and searches after it.
      next = 0;
      CHECK(weft::par_bridge(numbers).filter([](std::size_t x) { return x % 3 == 0; }).count() ==
            (n + 2) / 3);
      next = 0;
      CHECK(weft::par_bridge(numbers).any([n](std::size_t x) { return x + 1 == n; }) == (n > 0));
    }
  });
}

// Every puller runs until the source is dry, so none may wait for the others to end: in a
// fresh pool (its threads asleep, nobody asking for work) the first call must still hand a
// puller to another thread at once. Each item waits until two threads have run items; a
// bridge that left the other pullers private would have one thread drain the source alone,
// and the wait would give up.
TEST_CASE("par_bridge: a fresh pool's first call runs its pullers on several threads",
          "[iter][par_bridge]") {
  for (const std::size_t threads : {std::size_t{2}, std::size_t{7}}) {
    CAPTURE(threads);
    weft::thread_pool pool({.num_threads = threads});
    std::atomic<int> threads_seen{0};
    std::atomic<bool> gave_up{false};
    std::vector<std::atomic<bool>> ran(threads);
    const long sum = pool.install([&] {
      long next = 0;
      return weft::par_bridge([&next]() -> std::optional<long> {
               if (next == 1000) return std::nullopt;
               return next++;
             })
          .map([&](long x) {
            if (!ran[*weft::thread_index()].exchange(true)) threads_seen.fetch_add(1);
            if (!gave_up.load() &&
                !weft_test::eventually([&] { return threads_seen.load() >= 2; }, 5'000'000))
              gave_up.store(true);
            return x;
          })
          .sum();
    });
    CHECK(sum == 999L * 1000 / 2);
    CHECK_FALSE(gave_up.load());
    CHECK(threads_seen.load() >= 2);
  }
}

TEST_CASE("par_bridge: exceptions from the source or the pipeline reach the caller",
          "[iter][par_bridge]") {
  on_every_pool([] {
    for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
      std::size_t next = 0;
      std::atomic<std::size_t> calls_after_throw{0};
      bool thrown = false;
      const auto failing = [&]() -> std::optional<std::size_t> {
        if (thrown) calls_after_throw.fetch_add(1);
        if (next == n / 2) {
          thrown = true;
          throw std::runtime_error("source");
        }
        return next++;
      };
      CHECK_THROWS_AS(weft::par_bridge(failing).sum(), std::runtime_error);
      CHECK(calls_after_throw.load() == 0);  // the source is not read again
      next = 0;
      const auto numbers = [&next, n]() -> std::optional<std::size_t> {
        if (next == n) return std::nullopt;
        return next++;
      };
      CHECK_THROWS_AS(weft::par_bridge(numbers)
                          .map([n](std::size_t x) {
                            if (x == n - 1) throw std::logic_error("item");
                            return x;
                          })
                          .sum(),
                      std::logic_error);
      // The pool stays usable.
      CHECK(weft::range(0, 100).sum() == 4950);
    }
  });
}

TEST_CASE("par_bridge_ordered keeps the source's order and stops reading after a match",
          "[iter][par_bridge]") {
  on_every_pool([] {
    for (std::size_t n : sizes) {
      std::size_t next = 0;
      const auto numbers = [&next, n]() -> std::optional<std::size_t> {
        if (next == n) return std::nullopt;
        return next++;
      };
      std::vector<std::size_t> expected(n);
      for (std::size_t i = 0; i < n; ++i) expected[i] = 3 * i;
      CHECK(weft::par_bridge_ordered(numbers).map([](std::size_t x) { return 3 * x; }).to_vector() ==
            expected);
      next = 0;
      std::vector<std::size_t> kept;
      for (std::size_t i = 0; i < n; ++i)
        if (i % 7 == 3) kept.push_back(i);
      CHECK(weft::par_bridge_ordered(numbers).filter([](std::size_t x) { return x % 7 == 3; }).to_vector() ==
            kept);
      // find_first: the first match in the source's order, and the batches after it unread.
      next = 0;
      const auto hit = weft::par_bridge_ordered(numbers).find_first([](std::size_t x) { return x >= 10; });
      CHECK(hit == (n > 10 ? std::optional<std::size_t>(10) : std::nullopt));
      if (n == 100003) CHECK(next < n);
      // A list: references, in order, writable.
      std::list<std::size_t> list(expected.begin(), expected.end());
      CHECK(weft::par_bridge_ordered(list).to_vector() == expected);
      weft::par_bridge_ordered(list).for_each([](std::size_t& x) { x += 1; });
      CHECK((n == 0 || list.back() == 3 * (n - 1) + 1));
      // Exceptions from the source reach the caller.
      next = 0;
      const auto failing = [&next, n]() -> std::optional<std::size_t> {
        if (next == n / 2) throw std::runtime_error("source");
        return next++;
      };
      if (n > 0) CHECK_THROWS_AS(weft::par_bridge_ordered(failing).count(), std::runtime_error);
    }
  });
}
