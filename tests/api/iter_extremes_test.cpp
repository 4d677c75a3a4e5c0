// SPDX-License-Identifier: MIT
// Lengths at the top of std::size_t and bounds at the ends of every integer type: step_by,
// chunks, windows, take, skip, zip and chain count and slice without a product or a sum that
// wraps around, and weft::range rejects bounds its item type cannot hold. Every case runs on
// pools of 1, 2 and 7 threads with pieces of a few items, so that the split positions pass
// through the capped arithmetic too.
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace {

constexpr std::size_t size_max = std::numeric_limits<std::size_t>::max();
constexpr unsigned long long ull_max = std::numeric_limits<unsigned long long>::max();

template <class Body>
void on_pools(Body&& body) {
  for (const std::size_t threads : {1, 2, 7}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] { body(); });
  }
}

// The items of range(min, max) of T, checked at both ends and counted.
template <class T>
void check_type_ends() {
  constexpr T lo = std::numeric_limits<T>::min();
  constexpr T hi = std::numeric_limits<T>::max();
  using U = std::make_unsigned_t<T>;
  const std::size_t n =
      static_cast<std::size_t>(static_cast<U>(static_cast<U>(hi) - static_cast<U>(lo)));
  auto all = weft::range(lo, hi).with_max_len(4);
  CHECK(all.size() == n);
  if constexpr (sizeof(T) <= 2) CHECK(all.count() == n);  // count() visits every item
  CHECK(all.take(3).to_vector() == std::vector<T>{lo, T(lo + 1), T(lo + 2)});
  CHECK(all.skip(n - 3).to_vector() == std::vector<T>{T(hi - 3), T(hi - 2), T(hi - 1)});
  CHECK(all.rev().take(2).to_vector() == std::vector<T>{T(hi - 1), T(hi - 2)});
  CHECK(all.step_by(n).to_vector() == std::vector<T>{lo});
  CHECK(all.step_by(n - 1).to_vector() == std::vector<T>{lo, T(hi - 1)});
  CHECK(weft::range(hi, hi).size() == 0);
  CHECK(weft::range(hi, lo).count() == 0);
}

}  // namespace

TEST_CASE("step_by a step near SIZE_MAX keeps the first item", "[iter][extremes]") {
  const std::vector<int> v{10, 11, 12, 13, 14};
  on_pools([&] {
    auto stepped = weft::iter(v).step_by(size_max);
    CHECK(stepped.size() == 1);
    CHECK(stepped.count() == 1);
    CHECK(stepped.to_vector() == std::vector<int>{10});
    CHECK(weft::iter(v).step_by(size_max - 1).to_vector() == std::vector<int>{10});
    CHECK(weft::iter(v).step_by(4).to_vector() == std::vector<int>{10, 14});

    auto quarters = weft::range(0ull, ull_max).with_max_len(1).step_by(1ull << 62);
    CHECK(quarters.size() == 4);
    CHECK(quarters.count() == 4);
    CHECK(quarters.to_vector() ==
          std::vector<unsigned long long>{0, 1ull << 62, 1ull << 63, 3 * (1ull << 62)});

    auto halves = weft::range(LLONG_MIN, LLONG_MAX).with_max_len(1).step_by(1ull << 63);
    CHECK(halves.size() == 2);
    CHECK(halves.count() == 2);
    CHECK(halves.to_vector() == std::vector<long long>{LLONG_MIN, 0});

    // About a thousand items, split into pieces of one: every slice boundary is capped.
    const unsigned long long step = ull_max / 1000 + 1;
    std::vector<unsigned long long> expected;
    for (unsigned long long x = 0;; x += step) {
      expected.push_back(x);
      if (x > ull_max - 1 - step) break;
    }
    CHECK(weft::range(0ull, ull_max).with_max_len(1).step_by(step).to_vector() == expected);
  });
}

TEST_CASE("chunks and windows of SIZE_MAX items", "[iter][extremes]") {
  const std::vector<int> v{1, 2, 3, 4, 5, 6, 7};
  on_pools([&] {
    auto one = weft::iter(v).chunks(size_max);
    CHECK(one.count() == 1);
    CHECK(one.map([](auto run) { return run.size(); }).to_vector() == std::vector<std::size_t>{7});
    CHECK(weft::iter(v).chunks(3).map([](auto run) { return run.size(); }).to_vector() ==
          std::vector<std::size_t>{3, 3, 1});
    CHECK(weft::iter(v).windows(size_max).count() == 0);
    CHECK(weft::iter(v).windows(7).count() == 1);

    // Chunks of a range of ULLONG_MAX items: the last run ends at the range's end.
    auto big = weft::range(0ull, ull_max).with_max_len(1).chunks(1ull << 63);
    CHECK(big.size() == 2);
    CHECK(big.count() == 2);
    CHECK(big.map([](auto run) { return static_cast<unsigned long long>(run.size()); })
              .to_vector() == std::vector<unsigned long long>{1ull << 63, (1ull << 63) - 1});
  });
}

TEST_CASE("take, skip and zip with counts near SIZE_MAX", "[iter][extremes]") {
  const std::vector<int> v{1, 2, 3};
  on_pools([&] {
    CHECK(weft::iter(v).take(size_max).to_vector() == v);
    CHECK(weft::iter(v).skip(size_max).count() == 0);
    CHECK(weft::iter(v).skip(1).take(size_max).to_vector() == std::vector<int>{2, 3});
    auto huge = weft::range(0ull, ull_max).with_max_len(1);
    CHECK(huge.skip(ull_max - 2).to_vector() ==
          std::vector<unsigned long long>{ull_max - 2, ull_max - 1});
    CHECK(huge.skip(size_max).count() == 0);
    CHECK(huge.take(size_max).size() == ull_max);
    CHECK(weft::iter(v).zip(huge).count() == 3);
    CHECK(weft::range(0ull, ull_max).zip(weft::range(5, 8)).map([](auto p) { return p.first; })
              .to_vector() == std::vector<unsigned long long>{0, 1, 2});
  });
}

TEST_CASE("a chain longer than SIZE_MAX items is an error, not a wrapped length",
          "[iter][extremes]") {
  on_pools([] {
    auto a = weft::range(0ull, ull_max);
    CHECK_THROWS_AS(a.chain(weft::range(0ull, 2ull)).size(), std::length_error);
    CHECK_THROWS_AS(a.chain(weft::range(0ull, 2ull)).count(), std::length_error);
    CHECK(a.chain(weft::range(0ull, 0ull)).size() == ull_max);
    CHECK(weft::range(0ull, ull_max - 1).chain(weft::range(7ull, 8ull)).skip(ull_max - 3)
              .to_vector() == std::vector<unsigned long long>{ull_max - 3, ull_max - 2, 7});
  });
}

TEST_CASE("range covers every integer type from its minimum to its maximum",
          "[iter][extremes]") {
  on_pools([] {
    check_type_ends<signed char>();
    check_type_ends<unsigned char>();
    check_type_ends<short>();
    check_type_ends<unsigned short>();
    check_type_ends<int>();
    check_type_ends<unsigned>();
    check_type_ends<long>();
    check_type_ends<unsigned long>();
    check_type_ends<long long>();
    check_type_ends<unsigned long long>();
    check_type_ends<char16_t>();
    check_type_ends<char32_t>();
  });
}

TEST_CASE("range rejects a negative bound mixed with an unsigned one", "[iter][extremes]") {
  CHECK_THROWS_AS(weft::range(-3, 5u), std::out_of_range);
  CHECK_THROWS_AS(weft::range(3u, -1), std::out_of_range);
  CHECK_THROWS_AS(weft::range(-1LL, 5ull), std::out_of_range);
  // Bounds that fit the common type are fine, whatever their signedness.
  const std::vector<int> v(4);
  CHECK(weft::range(0, v.size()).count() == 4);
  CHECK(weft::range(2u, 5).to_vector() == std::vector<unsigned>{2, 3, 4});
  // A signed type wider than the unsigned one is the common type: negative bounds are fine.
  if constexpr (sizeof(long long) > sizeof(unsigned)) {
    CHECK(weft::range(-3LL, 2u).to_vector() == std::vector<long long>{-3, -2, -1, 0, 1});
  }
}
