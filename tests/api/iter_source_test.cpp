// SPDX-License-Identifier: MIT
// weft::range as a source: its leaf loop steps the items themselves up to `last`
// (plumbing::walks) rather than computing each from its position, so check the ends of
// unsigned and narrow types, and that every consumer still sees each item once, at its
// position.
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
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
