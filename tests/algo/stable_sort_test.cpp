// SPDX-License-Identifier: MIT
// weft::stable_sort against std::stable_sort.
#include "sort_support.hpp"

TEST_CASE("stable_sort matches std::stable_sort: every length, order, type and policy",
          "[algo][sort]") {
  check_all_types<true>();
}

TEST_CASE("stable_sort keeps equal keys in input order, radix and comparison paths",
          "[algo][sort]") {
  using pair_t = std::pair<std::uint32_t, std::uint32_t>;
  for (const std::size_t n : lengths) {
    auto rng = weft_test::seeded_rng(n);
    std::vector<pair_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = {static_cast<std::uint32_t>(rng() % 100), static_cast<std::uint32_t>(i)};
    auto want = v;
    std::stable_sort(want.begin(), want.end(), [](const pair_t& a, const pair_t& b) { return a.first < b.first; });
    auto a = v, b = v, c = v;
    weft::stable_sort(a, {}, &pair_t::first);  // radix on the projected key
    weft::stable_sort(weft::par, b.begin(), b.end(), [](const pair_t& x, const pair_t& y) { return x.first < y.first; });
    weft::stable_sort(c, std::ranges::less{}, [](const pair_t& p) { return p.first; });  // may throw: keys extracted first
    REQUIRE(a == want);
    REQUIRE(b == want);
    REQUIRE(c == want);
    auto d = v;
    std::stable_sort(want.begin(), want.end(), [](const pair_t& x, const pair_t& y) { return x.first > y.first; });
    std::stable_sort(d.begin(), d.end(), [](const pair_t& x, const pair_t& y) { return x.first > y.first; });
    auto e = v;
    weft::stable_sort(e, std::ranges::greater{}, &pair_t::first);
    REQUIRE(e == d);
  }
}
