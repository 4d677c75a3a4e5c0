// SPDX-License-Identifier: MIT
// is_sorted, is_sorted_until, merge, inplace_merge, partial_sort, partial_sort_copy,
// nth_element against their std:: counterparts.
#include <execution>
#include <functional>
#include <list>

#include "algo_support.hpp"

using namespace weft_algo;

TEST_CASE("is_sorted_until finds the first descent", "[algo][sort]") {
  for (const std::size_t n : lengths)
    for (const order o : orders) {
      CAPTURE(n, name(o));
      const auto v = ordered_input<std::string>(n, o, 1);
      REQUIRE(weft::is_sorted_until(weft::par, v.begin(), v.end()) == std::is_sorted_until(v.begin(), v.end()));
      REQUIRE(weft::is_sorted(std::execution::par, v.begin(), v.end()) == std::is_sorted(v.begin(), v.end()));
      REQUIRE(weft::is_sorted_until(weft::seq, v.begin(), v.end(), std::greater<>{}) ==
              std::is_sorted_until(v.begin(), v.end(), std::greater<>{}));
    }
  std::vector<int> v(big);
  std::iota(v.begin(), v.end(), 0);
  const auto descent = static_cast<std::ptrdiff_t>(big * 3 / 4);
  v[static_cast<std::size_t>(descent)] = 0;
  REQUIRE(weft::is_sorted_until(weft::par, v.begin(), v.end()) == v.begin() + descent);
  const std::list<int> l{1, 2, 2, 1};
  REQUIRE(weft::is_sorted_until(weft::par, l.begin(), l.end()) == std::prev(l.end()));
}

TEST_CASE("merge matches std::merge, stable, every length", "[algo][sort]") {
  using pair_t = std::pair<int, int>;
  const auto by_key = [](const pair_t& a, const pair_t& b) { return a.first < b.first; };
  for (const std::size_t n1 : lengths)
    for (const std::size_t n2 : {std::size_t{0}, std::size_t{3}, big}) {
      CAPTURE(n1, n2);
      auto rng = weft_test::seeded_rng(n1 + n2);
      std::vector<pair_t> a(n1), b(n2);
      for (std::size_t i = 0; i < n1; ++i) a[i] = {static_cast<int>(rng() % 500), 0};
      for (std::size_t i = 0; i < n2; ++i) b[i] = {static_cast<int>(rng() % 500), 1};
      std::sort(a.begin(), a.end(), by_key);
      std::sort(b.begin(), b.end(), by_key);
      std::vector<pair_t> want(n1 + n2), got(n1 + n2), got2(n1 + n2);
      std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin(), by_key);
      REQUIRE(weft::merge(weft::par, a.begin(), a.end(), b.begin(), b.end(), got.begin(), by_key) == got.end());
      weft::merge(weft::seq, a.begin(), a.end(), b.begin(), b.end(), got2.begin(), by_key);
      REQUIRE(got == want);
      REQUIRE(got2 == want);
    }
}

TEST_CASE("inplace_merge matches std::inplace_merge", "[algo][sort]") {
  for (const std::size_t n : lengths)
    for (const std::size_t cut : {std::size_t{0}, n / 3, n}) {
      CAPTURE(n, cut);
      auto v = random_input<move_only>(n, 8, 1000);
      const auto mid = v.begin() + static_cast<std::ptrdiff_t>(cut);
      std::stable_sort(v.begin(), mid);
      std::stable_sort(mid, v.end());
      auto want = clone(v);
      std::inplace_merge(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(cut), want.end());
      weft::inplace_merge(weft::par, v.begin(), mid, v.end());
      for (std::size_t i = 0; i < n; ++i) REQUIRE(v[i].value() == want[i].value());
    }
}

TEST_CASE("partial_sort, partial_sort_copy and nth_element", "[algo][sort]") {
  for (const std::size_t n : lengths) {
    CAPTURE(n);
    const auto input = random_input<std::string>(n, 6);
    auto want = input;
    std::sort(want.begin(), want.end());
    for (const std::size_t k : {std::size_t{0}, n / 2, n}) {
      CAPTURE(k);
      auto v = input;
      weft::partial_sort(weft::par, v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
      REQUIRE(std::equal(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), want.begin()));
      std::vector<std::string> out(k);
      REQUIRE(weft::partial_sort_copy(weft::par, input.begin(), input.end(), out.begin(), out.end()) == out.end());
      REQUIRE(std::equal(out.begin(), out.end(), want.begin()));
      if (k < n) {
        auto w = input;
        const auto nth = w.begin() + static_cast<std::ptrdiff_t>(k);
        weft::nth_element(weft::par, w.begin(), nth, w.end());
        REQUIRE(*nth == want[k]);
      }
      // The comparator forms, descending: the first k of the reversed order.
      const auto ck = static_cast<std::ptrdiff_t>(k);
      auto d = input;
      weft::partial_sort(weft::par, d.begin(), d.begin() + ck, d.end(), std::greater<>{});
      REQUIRE(std::equal(d.begin(), d.begin() + ck, want.rbegin()));
      std::vector<std::string> dout(k + 3);  // room for more than k: it writes k
      REQUIRE(weft::partial_sort_copy(weft::par, input.begin(), input.begin() + ck, dout.begin(), dout.end(),
                                      std::greater<>{}) == dout.begin() + ck);
      auto head = std::vector<std::string>(input.begin(), input.begin() + ck);
      std::sort(head.begin(), head.end(), std::greater<>{});
      REQUIRE(std::equal(head.begin(), head.end(), dout.begin()));
      if (k < n) {
        auto w = input;
        const auto nth = w.begin() + ck;
        weft::nth_element(weft::par, w.begin(), nth, w.end(), std::greater<>{});
        REQUIRE(*nth == want[n - 1 - k]);
        REQUIRE(std::all_of(w.begin(), nth, [&](const std::string& x) { return x >= *nth; }));
        REQUIRE(std::all_of(nth, w.end(), [&](const std::string& x) { return x <= *nth; }));
      }
    }
  }
}

TEST_CASE("merge with the default order matches std::merge", "[algo][sort]") {
  for (const std::size_t n : lengths) {
    CAPTURE(n);
    auto a = random_input<int>(n, 9, 700);
    auto b = random_input<int>(n / 2 + 1, 10, 700);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::vector<int> got(a.size() + b.size()), want(got.size());
    std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
    REQUIRE(weft::merge(weft::par, a.begin(), a.end(), b.begin(), b.end(), got.begin()) == got.end());
    REQUIRE(got == want);
  }
}

// The merge in parts copies (the inputs keep their values) whatever the iterators' constness
// and a comparator that takes non-const references, as std::merge allows.
TEST_CASE("merge copies strings from const and mutable iterators", "[algo][sort]") {
  auto a = random_input<std::string>(5000, 11, 900);
  auto b = random_input<std::string>(3001, 12, 900);
  const auto by_number = [](std::string& x, std::string& y) { return key_of(x) < key_of(y); };
  const auto by_number_const = [](const std::string& x, const std::string& y) { return key_of(x) < key_of(y); };
  std::stable_sort(a.begin(), a.end(), by_number_const);
  std::stable_sort(b.begin(), b.end(), by_number_const);
  const auto a0 = a, b0 = b;
  std::vector<std::string> want(a.size() + b.size()), got(want.size()), got_const(want.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin(), by_number);
  weft::merge(weft::par, a.begin(), a.end(), b.begin(), b.end(), got.begin(), by_number);
  weft::merge(weft::par, a.cbegin(), a.cend(), b.cbegin(), b.cend(), got_const.begin(), by_number_const);
  REQUIRE(got == want);
  REQUIRE(got_const == want);
  REQUIRE(a == a0);
  REQUIRE(b == b0);
}
