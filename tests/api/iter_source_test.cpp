// SPDX-License-Identifier: MIT
// weft::range as a source: its leaf loop steps the items themselves up to `last`
// (plumbing::walks), or down from it under rev() (plumbing::walks_back), rather than
// computing each from its position, so check the ends of unsigned and narrow types, and
// that every consumer still sees each item once, at its position.
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

TEST_CASE("range leaves step items up to last: type ends, positions", "[iter][interface]") {
  constexpr std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
  const auto to_int = [](std::uint8_t x) { return int{x}; };
  const auto even = [](std::int16_t x) { return x % 2 == 0; };
  for (std::size_t max_len : {std::size_t{1}, std::size_t{64}, std::size_t{1} << 20}) {
    auto top_range = weft::range(top - 1000, top).with_max_len(max_len);
    CHECK(top_range.count() == 1000);
    CHECK(top_range.map([](std::uint64_t x) { return top - x; }).sum() == 1000u * 1001u / 2);
    auto bytes = weft::range(std::uint8_t{200}, std::uint8_t{255}).with_max_len(max_len);
    CHECK(bytes.map(to_int).sum() == (200 + 254) * 55 / 2);
    auto shorts = weft::range(std::int16_t{32000}, std::int16_t{32767});
    CHECK(shorts.with_max_len(max_len).filter(even).count() == 384);
    CHECK(weft::range(std::int64_t{-7}, std::int64_t{100003})
              .with_max_len(max_len)
              .enumerate()
              .all([](auto p) { return static_cast<std::int64_t>(p.first) == p.second + 7; }));
    std::atomic<std::int64_t> mismatched{0};
    weft::range(std::int32_t{-50000}, std::int32_t{50000})
        .with_max_len(max_len)
        .enumerate()
        .for_each([&](auto p) {
          if (static_cast<std::int64_t>(p.first) != p.second + 50000) mismatched.fetch_add(1);
        });
    CHECK(mismatched.load() == 0);
    // Consumers that record positions: searches, collects.
    auto from_minus_7 = weft::range(std::int64_t{-7}, std::int64_t{100003}).with_max_len(max_len);
    CHECK(from_minus_7.position_first([](std::int64_t x) { return x >= 500; }) == 507);
    CHECK(from_minus_7.position_last([](std::int64_t x) { return x < 99000; }) == 99006);
    CHECK(from_minus_7.position_any([](std::int64_t x) { return x == 4242; }) == 4249);
    CHECK(from_minus_7.find_first([](std::int64_t x) { return x % 1000 == 999; }) == 999);
    // A chain converts the range's items to the common type; the collect writes each at its
    // position.
    const std::vector<std::int64_t> tail{1, 2, 3};
    const std::vector<std::int64_t> items = weft::range(std::int32_t{-7}, std::int32_t{100003})
                                                .with_max_len(max_len)
                                                .chain(tail)
                                                .to_vector();
    REQUIRE(items.size() == 100013);
    std::size_t misplaced = 0;
    for (std::size_t i = 0; i < 100010; ++i)
      misplaced += items[i] != static_cast<std::int64_t>(i) - 7;
    CHECK(misplaced == 0);
  }
}

// map and inspect over a range pass the range's walk on (plumbing::walks): each item is made
// once, in order within a leaf, moved on when the function returns a value, and a search
// stops the walk.
TEST_CASE("map and inspect over a range walk it: once per item, moved, stoppable", "[iter]") {
  const auto keep = [](std::int64_t y) { return y % 3 == 0; };
  const auto value = [](std::int64_t y) { return y * y % 7; };
  const auto affine = [](std::int64_t x) { return x * 5 + 1; };
  for (const auto& [a, b] : {std::pair<std::int64_t, std::int64_t>{-100003, 100003}, {0, 20011}}) {
    std::int64_t sum = 0;
    for (std::int64_t x = a; x < b; ++x)
      if (keep(affine(x))) sum += value(affine(x));
    for (std::size_t max_len : {std::size_t{1}, std::size_t{7}, std::size_t{1} << 20}) {
      CHECK(weft::range(a, b).with_max_len(max_len).map(affine).filter(keep).map(value).sum() ==
            sum);
      std::atomic<std::size_t> seen{0};
      CHECK(weft::range(a, b)
                .with_max_len(max_len)
                .inspect([&](std::int64_t) { seen.fetch_add(1, std::memory_order_relaxed); })
                .map(affine)
                .filter(keep)
                .map(value)
                .sum() == sum);
      CHECK(seen.load() == static_cast<std::size_t>(b - a));
    }
  }
  for (std::size_t max_len : {std::size_t{1}, std::size_t{64}, std::size_t{1} << 20}) {
    const auto found = weft::range(std::int64_t{0}, std::int64_t{1} << 40)
                           .with_max_len(max_len)
                           .map(affine)
                           .filter(keep)
                           .find_first([](std::int64_t y) { return y > 5000; });
    CHECK(found == 5001);
    const auto boxed = [](int i) { return std::make_unique<int>(i); };
    const auto even = [](const std::unique_ptr<int>& p) { return *p % 2 == 0; };
    const auto unbox = [](std::unique_ptr<int> p) { return long{*p}; };
    CHECK(weft::range(0, 100003).with_max_len(max_len).map(boxed).filter(even).map(unbox).sum() ==
          50002L * 100002 / 2);
  }
}

// rev() over a range walks it downwards (plumbing::walks_back: `for (x = last; x > first;)
// --x`), through the maps and inspects between them, and hands the base's non-negative form
// on: each item once, at its mirrored position, down to a type's lowest value, and a search
// stops the walk.
TEST_CASE("rev over a range walks it downwards: type ends, positions, stoppable", "[iter]") {
  constexpr std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
  constexpr std::int16_t low = std::numeric_limits<std::int16_t>::min();
  const auto mod11 = [](std::int64_t x) { return x % 11; };
  const auto affine = [](std::int64_t x) { return x * 5 + 1; };
  const auto keep = [](std::int64_t y) { return y % 3 == 0; };
  for (std::size_t max_len : {std::size_t{1}, std::size_t{7}, std::size_t{1} << 20}) {
    CAPTURE(max_len);
    CHECK(weft::range(top - 1000, top).with_max_len(max_len).rev().map([](std::uint64_t x) {
      return top - x;
    }).sum() == 1000u * 1001u / 2);
    CHECK(weft::range(std::uint8_t{0}, std::uint8_t{255}).with_max_len(max_len).rev().map(
              [](std::uint8_t x) { return int{x}; }).sum() == 254 * 255 / 2);
    CHECK(weft::range(low, std::int16_t(low + 1000)).with_max_len(max_len).rev().map(
              [](std::int16_t x) { return std::int64_t{x}; }).min() == low);
    // Items at mirrored positions: position i holds 100002 - i.
    auto down = weft::range(std::int64_t{-7}, std::int64_t{100003}).with_max_len(max_len).rev();
    CHECK(down.position_first([](std::int64_t x) { return x < 500; }) == 99503);
    CHECK(down.position_last([](std::int64_t x) { return x >= 99000; }) == 1002);
    CHECK(down.find_first([](std::int64_t x) { return x % 1000 == 999; }) == 99999);
    CHECK(down.enumerate().all(
        [](auto p) { return static_cast<std::int64_t>(p.first) == 100002 - p.second; }));
    const std::vector<std::int64_t> items = down.to_vector();
    REQUIRE(items.size() == 100010);
    std::size_t misplaced = 0;
    for (std::size_t i = 0; i < items.size(); ++i)
      misplaced += items[i] != 100002 - static_cast<std::int64_t>(i);
    CHECK(misplaced == 0);
    // Twice reversed walks up again; find_last drives a map over a range reversed.
    CHECK(down.rev().position_first([](std::int64_t x) { return x >= 500; }) == 507);
    constexpr std::int64_t huge = std::int64_t{1} << 40;
    const auto at_17 = [](std::int64_t y) { return y % 1000003 == 17; };
    const auto three_six = [](std::int64_t y) { return y % 1000 == 36; };
    std::int64_t last_17 = huge - 1, first_down = huge - 1;
    while (!at_17(affine(last_17))) --last_17;
    while (!(keep(affine(first_down)) && three_six(affine(first_down)))) --first_down;
    CHECK(weft::range(std::int64_t{0}, huge).with_max_len(max_len).map(affine).find_last(at_17) ==
          affine(last_17));
    // Signed ranges with and without negative items (the non-negative form only for the
    // latter), filtered and mapped, once per item.
    for (const auto& [a, b] : {std::pair<std::int64_t, std::int64_t>{-100003, 100003}, {0, 20011}}) {
      std::int64_t sum = 0, kept = 0;
      for (std::int64_t x = a; x < b; ++x) {
        sum += mod11(x);
        if (keep(affine(x))) kept += mod11(affine(x));
      }
      CHECK(weft::range(a, b).with_max_len(max_len).rev().map(mod11).sum() == sum);
      std::atomic<std::size_t> seen{0};
      CHECK(weft::range(a, b)
                .with_max_len(max_len)
                .rev()
                .inspect([&](std::int64_t) { seen.fetch_add(1, std::memory_order_relaxed); })
                .map(affine)
                .filter(keep)
                .map(mod11)
                .sum() == kept);
      CHECK(seen.load() == static_cast<std::size_t>(b - a));
      seen = 0;
      CHECK(weft::range(a, b)
                .with_max_len(max_len)
                .inspect([&](std::int64_t) { seen.fetch_add(1, std::memory_order_relaxed); })
                .rev()
                .map(mod11)
                .sum() == sum);
      CHECK(seen.load() == static_cast<std::size_t>(b - a));
    }
    CHECK(weft::range(std::int64_t{0}, huge)
              .with_max_len(max_len)
              .rev()
              .map(affine)
              .filter(keep)
              .find_first(three_six) == affine(first_down));
    CHECK(weft::range(std::int64_t{0}, huge)
              .with_max_len(max_len)
              .map(affine)
              .rev()
              .filter(keep)
              .find_first(three_six) == affine(first_down));
  }
}

// repeat_n, once, empty and repeat, against plain loops, at the usual lengths and in pools of
// 1, 2 and 7 threads.
TEST_CASE("repeat_n once empty and repeat yield copies of one value", "[iter][interface]") {
  for (std::size_t threads : {1, 2, 7}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      for (std::size_t n : {0, 1, 2, 1000, 100003}) {
        INFO("threads " << threads << " length " << n);
        CHECK(weft::repeat_n(3, n).size() == n);
        CHECK(weft::repeat_n(3, n).sum() == static_cast<int>(3 * n));
        CHECK(weft::repeat_n(std::string("ab"), n).map([](std::string s) { return s.size(); }).sum() ==
              2 * n);
        const std::vector<long> want(n, 7);
        CHECK(weft::repeat_n(7L, n).to_vector() == want);
        CHECK(weft::repeat(7L).take(n).to_vector() == want);
        // Items are fresh copies: changing one changes no other.
        const auto grown = weft::repeat_n(std::vector<int>{1, 2}, n)
                               .map([](std::vector<int> v) {
                                 v.push_back(3);
                                 return v.size();
                               })
                               .sum();
        CHECK(grown == 3 * n);
        std::vector<std::size_t> idx(n);
        for (std::size_t i = 0; i < n; ++i) idx[i] = i;
        const auto pairs = weft::repeat('x').zip(idx).to_vector();
        REQUIRE(pairs.size() == n);
        bool all = true;
        for (std::size_t i = 0; i < n; ++i) all = all && pairs[i].first == 'x' && pairs[i].second == i;
        CHECK(all);
        const auto numbered = weft::repeat_n(5, n).enumerate().map([](auto p) { return p.first * p.second; }).sum();
        CHECK(numbered == 5 * (n == 0 ? 0 : n * (n - 1) / 2));
        CHECK(weft::repeat_n(5, n).position_first([](int x) { return x == 5; }) ==
              (n == 0 ? std::nullopt : std::optional<std::size_t>{0}));
        CHECK(weft::repeat_n(1, n).chain(weft::empty<int>()).count() == n);
      }
      CHECK(weft::once(std::string("only")).to_vector() == std::vector<std::string>{"only"});
      CHECK(weft::empty<std::string>().to_vector().empty());
      CHECK(weft::empty<int>().sum() == 0);
      CHECK_FALSE(weft::empty<int>().find_first([](int) { return true; }).has_value());
      CHECK(weft::empty<int>().chain(weft::once(4)).to_vector() == std::vector<int>{4});
    });
  }
}
