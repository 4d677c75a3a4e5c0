// SPDX-License-Identifier: MIT
// weft::sort_by_cached_key against std::stable_sort by the same key: sizes 0, 1, 2, 1,000 and
// 100,003, pools of 1, 2 and 7 threads, seq and par, the key called once per element, a
// throwing key leaving the range untouched, move-only elements.
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
constexpr std::size_t sizes[] = {0, 1, 2, 1000, 100003};
constexpr std::size_t pool_sizes[] = {1, 2, 7};
}  // namespace

TEST_CASE("sort_by_cached_key sorts stably with one key call per element", "[algo][sort]") {
  for (std::size_t threads : pool_sizes) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([] {
      for (std::size_t n : sizes) {
        std::vector<std::size_t> v(n);
        for (std::size_t i = 0; i < n; ++i) v[i] = (i * 7919) % 1009;
        const auto text = [](std::size_t x) { return std::to_string(x % 100); };  // many ties
        auto expected = v;
        std::stable_sort(expected.begin(), expected.end(),
                         [&](std::size_t a, std::size_t b) { return text(a) < text(b); });
        std::atomic<std::size_t> calls{0};
        auto par = v;
        weft::sort_by_cached_key(par, [&](std::size_t x) {
          calls.fetch_add(1);
          return text(x);
        });
        CHECK(par == expected);
        CHECK(calls.load() == (n < 2 ? 0 : n));
        auto seq = v;
        weft::sort_by_cached_key(weft::seq, seq.begin(), seq.end(), text);
        CHECK(seq == expected);
        // A throwing key: the exception reaches the caller, the range is as it was.
        if (n > 1) {
          auto kept = v;
          CHECK_THROWS_AS(weft::sort_by_cached_key(kept,
                                                   [&](std::size_t x) {
                                                     if (x == v[n / 2]) throw std::runtime_error("key");
                                                     return x;
                                                   }),
                          std::runtime_error);
          CHECK(kept == v);
        }
        // Move-only elements.
        std::vector<std::unique_ptr<std::size_t>> owned;
        for (auto x : v) owned.push_back(std::make_unique<std::size_t>(x));
        weft::sort_by_cached_key(owned, [](const std::unique_ptr<std::size_t>& p) { return *p; });
        CHECK(std::is_sorted(owned.begin(), owned.end(),
                             [](const auto& a, const auto& b) { return *a < *b; }));
      }
    });
  }
}
