// SPDX-License-Identifier: MIT
// Pipelines that join or cut their input, or keep two kinds of accumulator: chain, chunks,
// windows, and reduce with a separate fold and combine.
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include <array>
#include <algorithm>
#include <deque>
#include <span>
#include <functional>
#include <numeric>
#include <ranges>
#include <range/v3/view/iota.hpp>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "test_support.hpp"

TEST_CASE("chain: one pipeline's items, then another's", "[iter][interface]") {
  std::vector<int> a(100003), b(54321);
  std::iota(a.begin(), a.end(), 0);
  std::iota(b.begin(), b.end(), 1'000'000);
  const std::vector<int>& ca = a;
  // Items: a reference when both sides give one to the same type, else the common type.
  static_assert(std::is_same_v<decltype(weft::iter(a).chain(b))::item_type, int&>);
  static_assert(std::is_same_v<decltype(weft::iter(ca).chain(b))::item_type, const int&>);
  static_assert(std::is_same_v<decltype(weft::iter(a).chain(weft::range(0, 3)))::item_type, int>);
  static_assert(std::is_same_v<decltype(weft::iter(a).chain(std::vector<long>{}))::item_type, long>);
  long want = 0;
  for (int x : a) want += x;
  for (int x : b) want += x;
  for (const std::size_t threads : {std::size_t{1}, std::size_t{2}}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      CHECK(weft::iter(a).chain(b).sum<long>() == want);
      CHECK(weft::iter(a).chain(b).with_max_len(1000).map([](int x) { return long{x}; }).sum() == want);
      CHECK(weft::iter(a).chain(b).size() == a.size() + b.size());
      CHECK(weft::iter(a).chain(b).position_first([](int x) { return x == 1'000'005; }) == a.size() + 5);
      CHECK(weft::iter(a).chain(b).position_last([](int x) { return x < 10; }) == 9);
      // Mutable references reach both containers.
      weft::iter(a).chain(b).for_each([](int& x) { x += 1; });
      CHECK(a.front() == 1);
      CHECK(b.back() == 1'000'000 + 54321);
      weft::iter(a).chain(b).with_max_len(7).for_each([](int& x) { x -= 1; });
      CHECK(a.back() == 100002);
      CHECK(b.front() == 1'000'000);
      // An rvalue on the right is moved in; a std::deque and a range-v3 view as sides.
      const std::deque<int> d{7, 8, 9};
      CHECK(weft::iter(std::vector<int>{1, 2}).chain(std::vector<int>{3}).chain(d).to_vector() ==
            std::vector<int>{1, 2, 3, 7, 8, 9});
      CHECK(weft::iter(d).chain(ranges::views::iota(0, 4)).to_vector() == std::vector<int>{7, 8, 9, 0, 1, 2, 3});
      // An exception from either side's items reaches the caller.
      for (const int bad : {17, 1'000'017}) {
        CHECK_THROWS_AS(weft::iter(a).chain(b).with_max_len(64).map([bad](int x) {
          if (x == bad) throw std::runtime_error("chain");
          return x;
        }).count(),
                        std::runtime_error);
      }
      // Unindexed sides: mutable references through filters, an exception from either side.
      const auto even = [](const int& x) { return x % 2 == 0; };
      weft::iter(a).filter(even).chain(weft::iter(b).filter(even)).for_each([](int& x) { x += 2; });
      CHECK(a[0] == 2);
      CHECK(a[1] == 1);
      CHECK(b[0] == 1'000'002);
      weft::iter(a).filter(even).chain(weft::iter(b).filter(even)).for_each([](int& x) { x -= 2; });
      CHECK(a[0] == 0);
      for (const int bad : {18, 1'000'018}) {
        CHECK_THROWS_AS(weft::iter(a).filter(even).chain(weft::iter(b).filter(even)).map([bad](int x) {
          if (x == bad) throw std::runtime_error("chain");
          return x;
        }).count(),
                        std::runtime_error);
      }
      CHECK(weft::iter(a).chain(b).count() == a.size() + b.size());  // the pool still works
    });
  }
}

// A chunk of a contiguous source is a std::span over its elements (writable when the source
// is: Rayon's par_chunks_mut), of another random-access source a subrange of its iterators.
TEST_CASE("chunks: spans of a contiguous source, subranges of others", "[iter][interface]") {
  std::vector<int> v(100003);
  const std::vector<int>& cv = v;
  std::deque<int> d(1000);
  static_assert(std::is_same_v<decltype(weft::iter(v).chunks(4))::item_type, std::span<int>>);
  static_assert(std::is_same_v<decltype(weft::iter(cv).chunks(4))::item_type, std::span<const int>>);
  static_assert(std::is_same_v<decltype(weft::iter(v).skip(3).chunks(4))::item_type, std::span<int>>);
  static_assert(std::is_same_v<decltype(weft::iter(d).chunks(4))::item_type,
                               std::ranges::subrange<std::deque<int>::iterator>>);
  for (const std::size_t threads : {std::size_t{1}, std::size_t{2}}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      for (const std::size_t c : {std::size_t{1}, std::size_t{100}, std::size_t{4096}}) {
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int>(v.size() - i);
        std::iota(d.begin(), d.end(), 0);
        // Sort each chunk in place, descending for the deque: a chunk is a range of references.
        weft::iter(v).chunks(c).for_each([](std::span<int> s) { std::sort(s.begin(), s.end()); });
        weft::iter(d).chunks(c).for_each([](auto s) { std::sort(s.begin(), s.end(), std::greater<>{}); });
        bool sorted = true;
        for (std::size_t lo = 0; lo < v.size(); lo += c) {
          const auto first = v.begin() + static_cast<long>(lo);
          const auto last = v.begin() + static_cast<long>(std::min(v.size(), lo + c));
          sorted = sorted && std::is_sorted(first, last) &&
                   *first == static_cast<int>(v.size() - (last - v.begin()) + 1);
        }
        CHECK(sorted);
        for (std::size_t lo = 0; lo < d.size(); lo += c) {
          const auto first = d.begin() + static_cast<long>(lo);
          const auto last = d.begin() + static_cast<long>(std::min(d.size(), lo + c));
          CHECK(std::is_sorted(first, last, std::greater<>{}));
          CHECK(*first == static_cast<int>(last - d.begin() - 1));
        }
        CHECK(weft::iter(cv).chunks(c).map([](std::span<const int> s) { return s.size(); }).sum() == v.size());
      }
    });
  }
}

// windows(n): every run of n adjacent items (a stencil); spans of a contiguous source.
TEST_CASE("windows: overlapping runs of adjacent items", "[iter][interface]") {
  std::vector<double> v(100003);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i % 1000);
  std::vector<double> want;
  for (std::size_t i = 0; i + 3 <= v.size(); ++i) want.push_back(v[i] + 2 * v[i + 1] + v[i + 2]);
  const std::deque<int> d{1, 2, 3, 4};
  static_assert(std::is_same_v<decltype(weft::iter(v).windows(3))::item_type, std::span<double>>);
  static_assert(std::is_same_v<decltype(weft::iter(d).windows(3))::item_type,
                               std::ranges::subrange<std::deque<int>::const_iterator>>);
  const auto stencil = [](std::span<const double> w) { return w[0] + 2 * w[1] + w[2]; };
  for (const std::size_t threads : {std::size_t{1}, std::size_t{2}}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      CHECK(weft::iter(v).windows(3).map(stencil).to_vector() == want);
      CHECK(weft::iter(v).windows(3).with_max_len(1).map(stencil).to_vector() == want);
      CHECK(weft::iter(v).windows(v.size()).count() == 1);
      CHECK(weft::iter(v).windows(v.size() + 1).count() == 0);
      CHECK(weft::iter(v).take(2).windows(3).size() == 0);
      // Adjacent pairs: is the input sorted, where does it first descend.
      const auto descends = [](std::span<double> w) { return w[1] < w[0]; };
      CHECK(weft::iter(v).windows(2).position_first(descends) == 999);
      CHECK(weft::iter(v).windows(2).position_last(descends) == 99999);
      CHECK(weft::iter(d).windows(2).map([](auto w) { return w[1] - w[0]; }).sum() == 3);
      CHECK(weft::range(0, 10).windows(4).map([](auto w) { return w[3] - w[0]; }).sum() == 21);
      CHECK_THROWS_AS(weft::iter(v).windows(0), std::invalid_argument);
    });
  }
}

// reduce(identity, fold, combine): fold sees items, combine sees accumulators only; the
// accumulators are joined in input order, so a fold into a vector keeps the input's order.
TEST_CASE("reduce with a separate fold and combine", "[iter][interface]") {
  std::vector<int> v(100003);
  auto rng = weft_test::seeded_rng(7);
  for (auto& x : v) x = static_cast<int>(rng() % 1000);
  std::array<long, 10> want{};
  for (int x : v) ++want[static_cast<std::size_t>(x % 10)];
  using hist = std::array<long, 10>;
  const auto fold = [](hist h, int x) {
    ++h[static_cast<std::size_t>(x % 10)];
    return h;
  };
  const auto combine = [](hist a, const hist& b) {
    for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
    return a;
  };
  const auto keep_odd = [](std::vector<int> acc, int x) {
    if (x % 2 != 0) acc.push_back(x);
    return acc;
  };
  const auto append = [](std::vector<int> a, std::vector<int> b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  std::vector<int> odd;
  for (int x : v)
    if (x % 2 != 0) odd.push_back(x);
  for (const std::size_t threads : {std::size_t{1}, std::size_t{2}}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      CHECK(weft::iter(v).reduce(hist{}, fold, combine) == want);
      CHECK(weft::iter(v).with_max_len(1).reduce(hist{}, fold, combine) == want);
      CHECK(weft::iter(v).deterministic().with_min_len(100).reduce(hist{}, fold, combine) == want);
      CHECK(weft::iter(v).reduce([] { return std::vector<int>{}; }, keep_odd, append) == odd);
      CHECK(weft::iter(v).with_max_len(3).reduce(std::vector<int>{}, keep_odd, append) == odd);
      CHECK(weft::iter(v).take(0).reduce(hist{}, fold, combine) == hist{});
      CHECK_THROWS_AS(weft::iter(v).with_max_len(100).reduce(hist{}, fold,
                                                             [](hist, const hist&) -> hist {
                                                               throw std::runtime_error("combine");
                                                             }),
                      std::runtime_error);
      CHECK(weft::iter(v).reduce(hist{}, fold, combine) == want);  // the pool still works
    });
  }
}
